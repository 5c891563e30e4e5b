import { reciprocalRankFusion } from '@weft/kit';
import { PprTraverser } from '@weft/traverser-ppr';
import { TextSearchTraverser } from '@weft/traverser-text';
import { sharedLexicalPlanner } from './default-stack.ts';
import { planReranker, readingPlanner, withPlanTraversers } from './query-graph-stages.ts';
import { relationAwareText } from './relation-aware-text.ts';
import type { StackEntry } from './stack-registry.ts';
import { builtinStackDescriptions } from './stack-listing.ts';

/**
 * The walk ranks a neighbourhood, not a question's wording: on their own, walk probabilities put the
 * seeds and hubs first (val Hit@1 10% on both KBs). Within the reached nodes the text picks
 * (`textRescoreK`), and reciprocal rank fusion with plain BM25 keeps text-only questions in BM25's
 * order while the walk adds the named nodes' neighbourhoods. Settings chosen on the hybrid val sets
 * with the trained planner: following every relation beat following only the planned ones on WordNet
 * (Hit@1 46.1 vs 34.6, Recall@20 88.5 vs 86.5; Pokémon unchanged), and 70% of the restart mass on
 * the text seeds helped a little more (48.1, 88.5). BM25 counts twice in the fusion: with equal
 * weights the walk's first places cost Hit@1 against BM25 on every KB (untrained stores, train and
 * val of WordNet hybrid, Pokémon and Debian hybrid, described and text, 515 questions: Hit@1 167 vs
 * BM25's 181); weighted 1.5 / 2 it is 177 / 180, MRR 235.1 / 236.1 against 235.7, and the walk still
 * adds most of its recall (R@20 summed over the 14 set splits 366.8 → 361.6 / 358.9, BM25 337.7).
 */
export const pprStack: StackEntry = {
  name: 'ppr',
  description: builtinStackDescriptions['ppr'],
  create: (store) => ({
    name: 'ppr',
    context: store.context,
    // The default stack's lexical planner: mentions always; trained, the relations that restrict the walk.
    planner: readingPlanner(sharedLexicalPlanner()),
    ...withPlanTraversers({
      traversers: [
        new PprTraverser({
          textRescoreK: 300,
          restrictToPlan: false,
          textShare: 0.7,
          ...relationAwareText(store.context),
        }),
        new TextSearchTraverser({ name: 'bm25', ...relationAwareText(store.context) }),
      ],
    }),
    // Weights in the traversers' order: the walk, BM25, then the executed readings' endpoints.
    fusion: reciprocalRankFusion({ weights: [1, 2, 1] }),
    rerankers: [planReranker()],
    llmBudget: 0,
  }),
};
