import { LexicalPlanner } from '@weft/planner-lexical';
import { PprTraverser } from '@weft/traverser-ppr';
import { TextSearchTraverser } from '@weft/traverser-text';
import { lexicalPlannerRef } from './default-stack.ts';
import type { StackEntry } from './stack-registry.ts';

/**
 * The walk ranks a neighbourhood, not a question's wording: on their own, walk probabilities put the
 * seeds and hubs first (val Hit@1 10% on both KBs). Within the reached nodes the text picks
 * (`textRescoreK`), and reciprocal rank fusion with plain BM25 keeps text-only questions in BM25's
 * order while the walk adds the named nodes' neighbourhoods. Settings chosen on the hybrid val sets
 * with the trained planner: following every relation beat following only the planned ones on WordNet
 * (Hit@1 46.1 vs 34.6, Recall@20 88.5 vs 86.5; Pokémon unchanged), and 70% of the restart mass on
 * the text seeds helped a little more (48.1, 88.5).
 */
export const pprStack: StackEntry = {
  name: 'ppr',
  description:
    'Personalized PageRank from the named nodes and the best text matches (push, bounded on hubs), text-rescored and fused with BM25; no LLM',
  create: (store) => ({
    name: 'ppr',
    context: store.context,
    // The default stack's lexical planner: mentions always; trained, the relations that restrict the walk.
    planner: new LexicalPlanner({ artifact: lexicalPlannerRef.name }),
    traversers: [
      new PprTraverser({ textRescoreK: 300, restrictToPlan: false, textShare: 0.7 }),
      new TextSearchTraverser({ name: 'bm25' }),
    ],
    llmBudget: 0,
  }),
};
