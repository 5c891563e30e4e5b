import { artifactEnvelope, artifactName } from '@weft/core';
import { LexicalPlanner } from '@weft/planner-lexical';
import type { RetrievalContext } from '@weft/spec';
import {
  expertGateArtifact,
  type GateQuery,
  MixtureTraverser,
  trainMixtureGate,
} from '@weft/traverser-mixrag';
import { PprTraverser } from '@weft/traverser-ppr';
import { TextSearchTraverser } from '@weft/traverser-text';
import { spread } from './spread.ts';
import type { StackCreateOptions, StackEntry, StackStore } from './stack-registry.ts';

/**
 * The lexical planner's model that `weft train` fits for the default stack: the graph-native stacks
 * read the same one (mentions always; trained, the asked-for relations that restrict the walk), so
 * they need no planner of their own. Untrained, it links mentions only, and the trace says so.
 */
const sharedPlanner = () => new LexicalPlanner({ artifact: artifactName('default', 'planner-lexical') });

/** The gate both MixRAG stacks read: `mixrag` falls back on it when its model does not answer. */
const gateArtifact = artifactName('mixrag', 'gate');

/** Queries per set and split the gate learns from (each costs three experts and a planner run). */
const trainPerSet = 150;
const valPerSet = 80;

function mixtureStack(name: string, llm: boolean): StackEntry {
  const build = (store: StackStore, options: StackCreateOptions) => ({
    name,
    context: {
      ...store.context,
      ...(llm && options.languageModel ? { languageModel: options.languageModel } : {}),
    },
    planner: sharedPlanner(),
    traversers: [new MixtureTraverser({ artifact: gateArtifact, llmGate: llm })],
    llmBudget: llm ? (options.llmBudget ?? 1) : 0,
  });
  return {
    name,
    description: llm
      ? 'MixRAG with an LLM gate: the model weighs the entity, relation and subgraph experts per query (learned gate without a model)'
      : 'MixRAG offline: entity, relation (verbalised triples) and subgraph (prize-collecting Steiner tree) experts, mixed by a learned query gate; no LLM (trainable)',
    create: build,
    ...(llm
      ? {}
      : {
          async train(store, options) {
            const context: RetrievalContext = { ...store.context, artifacts: options.artifacts };
            const pick = (split: 'train' | 'val', perSet: number): GateQuery[] => {
              const chosen = options.sets.map((set) => ({
                set: set.name,
                queries: spread(set[split], perSet),
              }));
              const largest = Math.max(1, ...chosen.map((c) => c.queries.length));
              // Every set weighs as much as the largest, so a small hand-written set is heard.
              return chosen.flatMap(({ set, queries }) =>
                queries.map((q) => ({
                  query: q.query,
                  answers: q.answers,
                  set,
                  weight: largest / queries.length,
                })),
              );
            };
            const result = await trainMixtureGate(
              context,
              new MixtureTraverser(),
              sharedPlanner(),
              { train: pick('train', trainPerSet), val: pick('val', valPerSet) },
              {
                onProgress: (done, total) => options.onProgress?.('gate', done, total),
                ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
              },
            );
            await options.artifacts.put(
              gateArtifact,
              artifactEnvelope(expertGateArtifact.kind, expertGateArtifact.version, result.model),
            );
            const best = Math.max(...result.tried.map((t) => t.val));
            const weights = Object.entries(result.weightsBySet)
              .map(
                ([set, w]) =>
                  `${set}: entity ${w.entity!.toFixed(2)} relation ${w.relation!.toFixed(2)} subgraph ${w.subgraph!.toFixed(2)}`,
              )
              .join('; ');
            return {
              summary: `gate ${result.chosen} (val ${result.chosen === 'fitted' ? best.toFixed(1) : result.uniform.toFixed(1)} vs ${result.chosen === 'fitted' ? `equal weights ${result.uniform.toFixed(1)}` : `fitted ${best.toFixed(1)}`}; mean of MRR and Recall@20); mean expert weights on val — ${weights}`,
              details: { ...result, model: undefined },
            };
          },
        }),
  };
}

/**
 * The walk ranks a neighbourhood, not a question's wording: on their own, walk probabilities put the
 * seeds and hubs first (val Hit@1 10% on both KBs). Within the reached nodes the text picks
 * (`textRescoreK`), and reciprocal rank fusion with plain BM25 keeps text-only questions in BM25's
 * order while the walk adds the named nodes' neighbourhoods. Settings chosen on the hybrid val sets
 * with the trained planner: following every relation beat following only the planned ones on WordNet
 * (Hit@1 46.1 vs 34.6, Recall@20 88.5 vs 86.5; Pokémon unchanged), and 70% of the restart mass on
 * the text seeds helped a little more (48.1, 88.5).
 */
const ppr: StackEntry = {
  name: 'ppr',
  description:
    'Personalized PageRank from the named nodes and the best text matches (push, bounded on hubs), text-rescored and fused with BM25; no LLM',
  create: (store) => ({
    name: 'ppr',
    context: store.context,
    planner: sharedPlanner(),
    traversers: [
      new PprTraverser({ textRescoreK: 300, restrictToPlan: false, textShare: 0.7 }),
      new TextSearchTraverser({ name: 'bm25' }),
    ],
    llmBudget: 0,
  }),
};

/** MixRAG's pipeline (offline, and with an LLM gate) and the graph-native Personalized PageRank stack. */
export const mixragStacks: readonly StackEntry[] = [
  mixtureStack('mixrag-offline', false),
  mixtureStack('mixrag', true),
  ppr,
];
