import { CypherPlanner } from '@weft/planner-llm-cypher';
import { SchemaPlanner } from '@weft/planner-schema';
import { ListwiseLlmReranker } from '@weft/reranker-llm';
import type { TraverserV1 } from '@weft/spec';
import { FocusedTraverser } from '@weft/traverser-focused';
import { llmWhenOf, withModel } from './llm-options.ts';
import { planReranker, readingPlanner, withPlanTraversers } from './query-graph-stages.ts';
import { relationAwareText } from './relation-aware-text.ts';
import { defaultLinker } from './default-stack.ts';
import { type StackEntry, stageTimeout } from './stack-registry.ts';
import { builtinStackDescriptions } from './stack-listing.ts';

/**
 * FocusedRetriever: the question becomes constraints (variables and triplets) grounded on the
 * graph, with anchor candidates that grow until the constraints hold, and text to fill the rest.
 * `focused-offline` takes its constraints from the schema planner; `focused` asks an LLM for
 * Cypher (read-only, parsed and grounded, never run) and ranks the result with a listwise LLM
 * reranker, falling back to the schema planner without a model.
 *
 * Both plan offline with the untrained schema planner, never the one `weft train` fits for MoR:
 * nothing after it corrects a confidently wrong answer type or relation (MoR's trajectory reranker
 * is fitted on its plans), so the fitted planner cost focused-offline on seven of the eight val sets
 * of three KBs, trained from the store alone and on labelled queries alike (Hit@1, untrained →
 * store / labelled: WordNet hybrid 36.5 → 21.2 / 28.8, wn18rr 58.0 → 26.3 / 53.3; Pokémon hybrid
 * 42.1 → 21.1 / 26.3, text 25.0 → 0.0 / 16.7; Debian hybrid 30.0 → 30.0 / 20.0, described 30.4 →
 * 13.0 / 21.7, text 50.0 → 30.0 / 30.0; Pokémon described 0.0 → 5.3 / 10.5).
 */

export const focusedOfflineStack: StackEntry = {
  name: 'focused-offline',
  description: builtinStackDescriptions['focused-offline'],
  create: (store) => ({
    name: 'focused-offline',
    context: store.context,
    planner: readingPlanner(new SchemaPlanner({ untrained: true }), { linker: defaultLinker() }),
    ...withPlanTraversers({
      traversers: [
        new FocusedTraverser({ alphaByConfidence: true, ...relationAwareText(store.context) }) as TraverserV1,
      ],
    }),
    rerankers: [planReranker()],
    llmBudget: 0,
  }),
};

export const focusedStack: StackEntry = {
  name: 'focused',
  description: builtinStackDescriptions['focused'],
  create: (store, options) => ({
    name: 'focused',
    context: withModel(store, options),
    planner: readingPlanner(
      new CypherPlanner({
        fallback: new SchemaPlanner({ untrained: true }),
        when: llmWhenOf(options) ?? 'always',
        ...stageTimeout(options),
      }),
      { linker: defaultLinker() },
    ),
    // The model's Cypher keeps the published merge; the fallback's plan is weighed as in focused-offline.
    ...withPlanTraversers({
      traversers: [
        new FocusedTraverser({
          alphaByConfidence: 'offline-plans',
          ...relationAwareText(store.context),
        }) as TraverserV1,
      ],
    }),
    // The model reranks last: it has the final word over the offline readings.
    rerankers: [planReranker(), new ListwiseLlmReranker({ topK: 20, maxCalls: 1, ...stageTimeout(options) })],
    // One Cypher query and one listwise ranking per query.
    llmBudget: options.llmBudget ?? 2,
  }),
};

/** FocusedRetriever, offline and with an LLM. */
export const focusedStacks: readonly StackEntry[] = [focusedOfflineStack, focusedStack];
