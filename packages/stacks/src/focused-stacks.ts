import { CypherPlanner } from '@weft/planner-llm-cypher';
import { SchemaPlanner } from '@weft/planner-schema';
import { ListwiseLlmReranker } from '@weft/reranker-llm';
import type { TraverserV1 } from '@weft/spec';
import { FocusedTraverser } from '@weft/traverser-focused';
import { llmWhenOf, withModel } from './llm-options.ts';
import { schemaPlannerRef, schemaPlannerTraining } from './planner-schema-training.ts';
import { type StackEntry, stageTimeout } from './stack-registry.ts';

/**
 * FocusedRetriever: the question becomes constraints (variables and triplets) grounded on the
 * graph, with anchor candidates that grow until the constraints hold, and text to fill the rest.
 * `focused-offline` takes its constraints from the schema planner; `focused` asks an LLM for
 * Cypher (read-only, parsed and grounded, never run) and ranks the result with a listwise LLM
 * reranker, falling back to the schema planner without a model.
 */

export const focusedOfflineStack: StackEntry = {
  name: 'focused-offline',
  description:
    "FocusedRetriever's pipeline offline: schema planner, constraint grounding with growing anchor candidates, text fill; no LLM",
  create: (store) => ({
    name: 'focused-offline',
    context: store.context,
    planner: new SchemaPlanner({ artifact: schemaPlannerRef }),
    traversers: [new FocusedTraverser({ alphaByConfidence: true }) as TraverserV1],
    llmBudget: 0,
  }),
  training: [schemaPlannerTraining],
};

export const focusedStack: StackEntry = {
  name: 'focused',
  description:
    'FocusedRetriever: the LLM writes Cypher (read-only, parsed and grounded, never run), constraint grounding, listwise LLM reranker; offline without a model',
  create: (store, options) => ({
    name: 'focused',
    context: withModel(store, options),
    planner: new CypherPlanner({
      fallback: new SchemaPlanner({ artifact: schemaPlannerRef }),
      when: llmWhenOf(options) ?? 'always',
      ...stageTimeout(options),
    }),
    // The model's Cypher keeps the published merge; the fallback's plan is weighed as in focused-offline.
    traversers: [new FocusedTraverser({ alphaByConfidence: 'offline-plans' }) as TraverserV1],
    rerankers: [new ListwiseLlmReranker({ topK: 20, maxCalls: 1, ...stageTimeout(options) })],
    // One Cypher query and one listwise ranking per query.
    llmBudget: options.llmBudget ?? 2,
  }),
};

/** FocusedRetriever, offline and with an LLM. */
export const focusedStacks: readonly StackEntry[] = [focusedOfflineStack, focusedStack];
