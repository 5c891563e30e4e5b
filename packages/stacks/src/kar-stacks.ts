import type { StackDefinition } from '@weft/core';
import { reciprocalRankFusion } from '@weft/kit';
import { KarExpander, LlmKarExpander } from '@weft/expander-kar';
import type { RetrievalContext, TraverserV1 } from '@weft/spec';
import { TextSearchTraverser, VectorSearchTraverser } from '@weft/traverser-text';
import { defaultTraining, sharedLexicalPlanner } from './default-stack.ts';
import { withModel } from './llm-options.ts';
import { planReranker, readingPlanner, withPlanTraversers } from './query-graph-stages.ts';
import { type StackEntry, stageTimeout } from './stack-registry.ts';
import { builtinStackDescriptions } from './stack-listing.ts';

/**
 * KAR (knowledge-aware query expansion): the question is expanded with what the KB says about the
 * entities it names, then searched. Offline, the expansion is composed from the linked entities'
 * neighbours whose documents resemble the question; with an LLM (`StackCreateOptions.languageModel`)
 * the model writes it from filtered document triples, falling back to the offline half without one.
 */

/** The lexical planner the default stack's training fits links the question's entities. */
const linker = () => sharedLexicalPlanner();

/** A stack's text and dense retrieval of the (expanded) question, fused when the store has vectors. */
function finalRetrieval(
  context: RetrievalContext,
  dense: boolean,
): Pick<StackDefinition, 'traversers' | 'fusion'> {
  const text = new TextSearchTraverser({ name: 'bm25' });
  if (!dense || !context.vector || !context.embeddingModel) return { traversers: [text] };
  return {
    traversers: [text, new VectorSearchTraverser({ name: 'vector' }) as TraverserV1],
    fusion: reciprocalRankFusion({ k: 60 }),
  };
}

export const karOfflineStack: StackEntry = {
  name: 'kar-offline',
  description: builtinStackDescriptions['kar-offline'],
  create: (store) => ({
    name: 'kar-offline',
    context: store.context,
    expander: new KarExpander({ linker: linker() }),
    planner: readingPlanner(linker()),
    // Chosen on val: dense retrieval of the expanded question lost to BM25 alone on both KBs.
    ...withPlanTraversers(finalRetrieval(store.context, false)),
    rerankers: [planReranker()],
    llmBudget: 0,
  }),
  // It learns nothing of its own: what it reads is the default stack's lexical planner.
  training: [defaultTraining],
};

export const karStack: StackEntry = {
  name: 'kar',
  description: builtinStackDescriptions['kar'],
  create: (store, options) => {
    const context = withModel(store, options);
    return {
      name: 'kar',
      context,
      // The model reads the facts and names those that fit: it is shown the top k neighbours whatever
      // they score (chosen on val with the oracle model: with the 0.7 floor Pokémon 36.8 Hit@1
      // against 47.4, Debian 70 both).
      expander: new LlmKarExpander({ linker: linker(), factsMinRelevance: 0, ...stageTimeout(options) }),
      planner: readingPlanner(linker()),
      // BM25 alone, as kar-offline: fused with dense retrieval, the expanded question lost on val
      // with the oracle model too (Debian hybrid 70 → 40 Hit@1, Pokémon 47.4 both); that fusion is
      // what kept kar on the oracle below kar-offline.
      ...withPlanTraversers(finalRetrieval(context, false)),
      rerankers: [planReranker()],
      llmBudget: options.llmBudget ?? 1,
    };
  },
};

/** KAR, offline and with an LLM. */
export const karStacks: readonly StackEntry[] = [karOfflineStack, karStack];
