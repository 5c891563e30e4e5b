import { reciprocalRankFusion, WeftError } from '@weft/kit';
import { TextSearchTraverser, VectorSearchTraverser } from '@weft/traverser-text';
import type { StackEntry, StackStore } from './stack-registry.ts';
import { builtinStackDescriptions } from './stack-listing.ts';

function requireVectors(store: StackStore, stack: string): void {
  if (!store.context.vector || !store.context.embeddingModel) {
    throw new WeftError({
      code: 'WEFT_BAD_INPUT',
      message: `stack "${stack}" needs a vector index, and the store has none; re-run weft ingest with an embedder`,
    });
  }
}

/** The yardsticks every other stack is measured against; always available. */
export const baselineStacks: readonly StackEntry[] = [
  {
    name: 'bm25',
    description: builtinStackDescriptions['bm25'],
    create: (store) => ({
      name: 'bm25',
      context: store.context,
      traversers: [new TextSearchTraverser({ name: 'bm25' })],
    }),
  },
  {
    name: 'bm25-rel',
    description: builtinStackDescriptions['bm25-rel'],
    create: (store) => ({
      name: 'bm25-rel',
      context: store.context,
      traversers: [new TextSearchTraverser({ name: 'bm25-rel', field: 'combined' })],
    }),
  },
  {
    name: 'vector',
    description: builtinStackDescriptions['vector'],
    create: (store) => {
      requireVectors(store, 'vector');
      return {
        name: 'vector',
        context: store.context,
        traversers: [new VectorSearchTraverser({ name: 'vector' })],
      };
    },
  },
  {
    name: 'hybrid-rrf',
    description: builtinStackDescriptions['hybrid-rrf'],
    create: (store) => {
      requireVectors(store, 'hybrid-rrf');
      return {
        name: 'hybrid-rrf',
        context: store.context,
        traversers: [
          new TextSearchTraverser({ name: 'bm25' }),
          new VectorSearchTraverser({ name: 'vector' }),
        ],
        fusion: reciprocalRankFusion({ k: 60 }),
      };
    },
  },
];
