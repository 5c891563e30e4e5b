import { createRetriever, type StackDefinition } from '@weft/core';
import { LlmCritic, RuleCritic } from '@weft/critic-hybgrag';
import { artifactName, collectExamples, spread } from '@weft/kit';
import {
  type ExampleCandidate,
  fitRouterExamples,
  HybgragPlanner,
  LlmHybgragPlanner,
  routeOf,
  routerAction,
  routerExamplesArtifact,
} from '@weft/planner-hybgrag';
import type { RetrievalContext, TrainingStepV1 } from '@weft/spec';
import { BankTraverser } from '@weft/traverser-bank';
import { defaultTraining, lexicalPlannerRef, sharedLexicalPlanner } from './default-stack.ts';
import { withModel } from './llm-options.ts';
import { planReranker, readingPlanner, withPlanTraversers } from './query-graph-stages.ts';
import { relationAwareText } from './relation-aware-text.ts';
import { type StackEntry, stageTimeout } from './stack-registry.ts';
import { builtinStackDescriptions } from './stack-listing.ts';

/**
 * HybGRAG: a router picks the retrieval module (text, hybrid, graph) and the relations to follow,
 * a retriever bank runs it, and a critic's feedback refines the route over rounds. Offline, the
 * router works on the lexical planner's anchors and relations and a rule-based critic judges; with
 * an LLM (`StackCreateOptions.languageModel`) the model routes (few-shot from train) and critiques,
 * falling back to the offline halves without one (the trace says so).
 */

/** Few-shot examples of the LLM router, chosen from the train split by `weft train`. */
const routerExamplesRef = routerExamplesArtifact.ref(artifactName('hybgrag', 'planner-hybgrag'));

/** HybGRAG's loop: at most 4 rounds; the last one replays the best critiqued round. */
const hybgragRounds = 4;
/** HybGRAG's cap on model calls per question. */
const hybgragBudget = 14;
/** Train questions per set the router's examples are chosen from. */
const examplesPerSet = 60;

/**
 * The lexical planner the default stack's training fits: anchors, answer types and relations; with
 * no relation learned from labelled queries, the relations whose names the question spells in full.
 * The offline router follows only planned relations, else every relation of the anchor's type: with
 * names read, hybgrag-offline untrained, Hit@1 before → after (`weft eval`, train / val): WordNet
 * wn18rr val (first 300) 58 → 170 of 300; Debian hybrid 11 → 13 / 7 → 9 of 20 / 10; Pokémon hybrid
 * 19 → 18 / 10 → 11 of 48 / 19; WordNet hybrid 74 / 26 of 158 / 52, unchanged; described questions
 * 10 → 8 (Debian) and 5 → 3 (Pokémon) of 47 on train, unchanged on val; text-only (labelled and 189
 * synthesised per KB) unchanged; trained from the store alone, the same. Names spelled in half too
 * (`minScore` 0.5) cost the Pokémon hybrid train set 5 questions for WordNet hybrid's 3.
 */
const linker = () => sharedLexicalPlanner({ relationsSpelledInFull: true });

function hybgragOffline(context: RetrievalContext, rounds = hybgragRounds): StackDefinition {
  return {
    name: 'hybgrag-offline',
    context,
    planner: readingPlanner(new HybgragPlanner({ base: linker(), maxRounds: rounds })),
    // The ego-graph's members are ranked on their own documents: on `combined` each names the anchor.
    ...withPlanTraversers({
      traversers: [new BankTraverser({ ...relationAwareText(context), memberField: 'document' })],
    }),
    rerankers: [planReranker()],
    ...(rounds > 1 ? { critic: new RuleCritic() } : {}),
    maxRounds: rounds,
    llmBudget: 0,
  };
}

/**
 * Chooses the router's few-shot examples: labelled train questions whose first offline route put a
 * gold answer first, of both modules.
 */
const hybgragTraining: TrainingStepV1 = {
  specificationVersion: 'v1',
  id: 'hybgrag',
  description: "the LLM router's few-shot examples, from train questions the offline route answered right",
  learnsFrom: ['labelled'],
  reads: [lexicalPlannerRef],
  writes: [routerExamplesRef],
  async doTrain(options) {
    const retriever = createRetriever(hybgragOffline(options.context, 1));
    // Labelled sets only (learnsFrom): synthesised questions make poor examples of how people ask.
    const queries = options.sets
      .flatMap((set) => spread(set.train, examplesPerSet))
      .map((query) => ({ query }));
    const candidates: ExampleCandidate[] = await collectExamples(
      retriever,
      queries,
      { ...options, limit: 10, label: 'router examples' },
      ({ ranking, trace }, { query }) => {
        const route = routeOf(trace.plan);
        if (!route || !trace.plan) return undefined;
        return {
          query: query.query,
          action: routerAction(trace.plan, route.choice),
          correct: ranking[0] !== undefined && query.answers.includes(ranking[0].id),
        };
      },
    );
    const examples = fitRouterExamples(candidates);
    await routerExamplesArtifact.save(options.context.artifacts, routerExamplesRef, examples);
    return {
      summary: `${examples.length} few-shot examples for the router (of ${candidates.filter((c) => c.correct).length} train questions routed right)`,
      details: { examples: examples.map((e) => ({ query: e.query, module: e.action.module })) },
    };
  },
};

export const hybgragOfflineStack: StackEntry = {
  name: 'hybgrag-offline',
  description: builtinStackDescriptions['hybgrag-offline'],
  create: (store) => hybgragOffline(store.context),
  // It learns nothing of its own: what it reads is the default stack's lexical planner.
  training: [defaultTraining],
};

export const hybgragStack: StackEntry = {
  name: 'hybgrag',
  description: builtinStackDescriptions['hybgrag'],
  create: (store, options) => ({
    name: 'hybgrag',
    context: withModel(store, options),
    planner: readingPlanner(
      new LlmHybgragPlanner({
        base: linker(),
        maxRounds: hybgragRounds,
        artifact: routerExamplesRef.name,
        ...stageTimeout(options),
      }),
    ),
    ...withPlanTraversers({
      traversers: [new BankTraverser({ ...relationAwareText(store.context), memberField: 'document' })],
    }),
    rerankers: [planReranker()],
    critic: new LlmCritic({ fallback: new RuleCritic(), ...stageTimeout(options) }),
    maxRounds: hybgragRounds,
    llmBudget: Math.min(options.llmBudget ?? hybgragBudget, hybgragBudget),
  }),
  training: [hybgragTraining],
};

/** HybGRAG, offline and with an LLM. */
export const hybgragStacks: readonly StackEntry[] = [hybgragOfflineStack, hybgragStack];
