import { createRetriever, type StackDefinition } from '@weft/core';
import { artifactName, balancedQueries, collectExamples, spread, WeftError } from '@weft/kit';
import {
  type FewShotCandidate,
  fitLlmPathPlanner,
  LlmPathPlanner,
  llmPathPlannerArtifact,
  type ThresholdExample,
} from '@weft/planner-llm-paths';
import { SchemaPlanner, type SchemaPlannerModel, schemaPlannerArtifact } from '@weft/planner-schema';
import {
  type RerankExample,
  TrajectoryReranker,
  trainTrajectoryReranker,
  trajectoryRerankerArtifact,
} from '@weft/reranker-trajectory';
import type { RetrievalContext, SkbQuery, TrainingStepV1, TrainOptionsV1 } from '@weft/spec';
import { MorTraverser } from '@weft/traverser-mor';
import { llmWhenOf, withModel } from './llm-options.ts';
import { schemaPlannerRef, schemaPlannerTraining } from './planner-schema-training.ts';
import { planReranker, readingPlanner, withPlanTraversers } from './query-graph-stages.ts';
import { relationAwareText } from './relation-aware-text.ts';
import { defaultLinker } from './default-stack.ts';
import { type StackEntry, stageTimeout } from './stack-registry.ts';
import { builtinStackDescriptions } from './stack-listing.ts';

/**
 * MoR (Mixture of Structural-and-Textual Retrieval): a planner picks typed reasoning paths, mixed
 * traversal follows them and searches the text, a trajectory reranker orders what both found.
 * `mor-offline` plans with the schema planner; `mor` asks an LLM for the paths when that planner is
 * unsure and otherwise is `mor-offline` (same traverser, the reranker `mor-offline` fitted).
 */

/** The reranker `mor-offline` fits on its own candidates; `mor` reads the same one. */
const morRerankerRef = trajectoryRerankerArtifact.ref(artifactName('mor-offline', 'reranker-trajectory'));
/** When `mor` asks the model, and the few-shot examples it shows. */
const morPlannerRef = llmPathPlannerArtifact.ref(artifactName('mor', 'planner-llm-paths'));

/** Train and val queries per set the reranker is fitted on (the rest would only cost time). */
const rerankTrainPerSet = 200;
const rerankValPerSet = 120;
/** Val and train queries per set the LLM planner's threshold and examples are chosen from. */
const thresholdValPerSet = 120;
const examplesTrainPerSet = 60;

async function schemaPlannerModel(options: TrainOptionsV1, step: string): Promise<SchemaPlannerModel> {
  const load = await schemaPlannerArtifact.load(options.context.artifacts, schemaPlannerRef);
  if (load.status !== 'loaded')
    throw new WeftError({
      code: 'WEFT_STAGE_FAILED',
      message: `${step}: the schema planner did not load (${load.message})`,
    });
  return load.value;
}

function mixedDefinition(
  name: string,
  context: RetrievalContext,
  planner: SchemaPlanner | LlmPathPlanner,
  combine: 'sum' | 'intersect',
  llmBudget: number,
): StackDefinition {
  return {
    name,
    context,
    // A trusted model plan is executed, as FocusedRetriever grounds a model's Cypher: the nodes its
    // paths reach from every anchor lead, ranked by its restriction on the field MoR's text ranks by;
    // where they reach nothing or the anchors' paths share no node, MoR's mixed traversal ranks alone.
    // With the oracle model and neutral rerankers (`--oracle-rerank keep`), mor's Hit@1 rose or held
    // on the 8 train/val splits of Debian and Pokémon hybrid and described (Pokémon described val 57.9
    // → 78.9) and is focused's or above on each (figures in packages/oracle/README.md).
    planner: readingPlanner(planner, {
      linker: defaultLinker(),
      executeModelPlans: relationAwareText(context),
    }),
    ...withPlanTraversers({
      traversers: [new MorTraverser({ name: 'mor', combine, ...relationAwareText(context) })],
    }),
    // Untrained, an offline plan's confidence blends in the text order; the LLM's plans keep MoR's
    // order, trained or not (the model is fitted on offline plans). So `mor` without a model, or
    // with its offline plan kept, ranks as `mor-offline`.
    rerankers: [
      new TrajectoryReranker({
        artifact: morRerankerRef.name,
        untrainedRouteByConfidence: 'offline-plans',
        modelFor: 'offline-plans',
      }),
      planReranker(),
    ],
    llmBudget,
  };
}

/**
 * Fits `mor-offline`'s trajectory reranker on what the stack finds without it. Text-only sets teach
 * the route gate only (see `RerankExample.gateOnly`); every set weighs as much as the largest, so
 * the reranker (and the val figure that picks its settings) serves all of them.
 */
const morOfflineTraining: TrainingStepV1 = {
  specificationVersion: 'v1',
  id: 'mor-offline',
  description: "the trajectory reranker and route gate on mor-offline's candidates",
  learnsFrom: ['labelled', 'synthesized'],
  reads: [schemaPlannerRef],
  writes: [morRerankerRef],
  async doTrain(options) {
    const { context } = options;
    const planner = new SchemaPlanner({ model: await schemaPlannerModel(options, 'mor-offline') });
    const definition = mixedDefinition('mor-offline', context, planner, 'intersect', 0);
    const retriever = createRetriever({ ...definition, rerankers: [] });
    const collect = (split: 'train' | 'val', perSet: number) =>
      collectExamples(
        retriever,
        balancedQueries(options.sets, split, perSet),
        { ...options, limit: 100, label: `mor-offline ${split}` },
        ({ ranking, trace }, { query, weight, set }): RerankExample => ({
          candidates: ranking,
          answers: query.answers,
          weight,
          ...(set.textOnly === true ? { gateOnly: true } : {}),
          query: query.query,
          ...(trace.plan ? { plan: trace.plan } : {}),
        }),
      );
    const trainExamples = await collect('train', rerankTrainPerSet);
    const valExamples = await collect('val', rerankValPerSet);
    const result = await trainTrajectoryReranker(trainExamples, valExamples);
    await trajectoryRerankerArtifact.save(context.artifacts, morRerankerRef, result.model);
    const best = result.val[0]!;
    const gate = result.gate
      ? `; route gate ${result.gate.kept ? `kept (${result.gate.mode})` : 'dropped'} (val Hit@1 ${result.gate.hit1.toFixed(1)} vs ${result.gate.withoutGate.hit1.toFixed(1)} without, text route ${result.gate.textRoute.toFixed(0)}%)`
      : '';
    return {
      summary: `reranker fitted on ${trainExamples.filter((e) => !e.gateOnly).length} queries (+${trainExamples.filter((e) => e.gateOnly).length} gate-only), val Hit@1 ${best.hit1.toFixed(1)} MRR ${best.mrr.toFixed(1)} (${best.objective}, l2 ${best.l2}${best.structureFirst ? ', structure first' : ''})${gate}`,
      details: { reranker: result.val, ...(result.gate ? { gate: result.gate } : {}) },
    };
  },
};

/**
 * Fits when `mor` asks the model: the offline stack runs on val, and the planner's confidence
 * threshold that best separates its misses from its hits is kept; train queries it answers right
 * become few-shot examples.
 */
const morTraining: TrainingStepV1 = {
  specificationVersion: 'v1',
  id: 'mor',
  description: 'when the LLM planner asks the model (confidence threshold) and its few-shot examples',
  learnsFrom: ['labelled', 'synthesized'],
  reads: [schemaPlannerRef, morRerankerRef],
  writes: [morPlannerRef],
  async doTrain(options) {
    const planner = new SchemaPlanner({ model: await schemaPlannerModel(options, 'mor') });
    const retriever = createRetriever(mixedDefinition('mor', options.context, planner, 'intersect', 0));
    const relational = options.sets.filter((set) => !set.textOnly);
    const queries = (split: 'train' | 'val', perSet: number) =>
      relational.flatMap((set) => spread(set[split], perSet)).map((query) => ({ query }));
    const run = (items: readonly { query: SkbQuery }[], label: string) =>
      collectExamples(retriever, items, { ...options, limit: 20, label }, ({ ranking, trace }, { query }) => {
        const top = ranking[0];
        return {
          trace,
          correct: top !== undefined && query.answers.includes(top.id),
          structural: (top?.scores.structure ?? 0) > 0,
          query: query.query,
        };
      });
    const val: ThresholdExample[] = (await run(queries('val', thresholdValPerSet), 'threshold')).map(
      ({ trace, correct }) => ({ confidence: trace.plan?.confidence ?? 0, correct }),
    );
    const train: FewShotCandidate[] = (await run(queries('train', examplesTrainPerSet), 'examples')).flatMap(
      ({ trace, correct, structural, query }) =>
        trace.plan ? [{ query, plan: trace.plan, correct: correct && structural }] : [],
    );
    const fitted = fitLlmPathPlanner({ val, train });
    await llmPathPlannerArtifact.save(options.context.artifacts, morPlannerRef, fitted);
    const percent = (x: number) => `${(100 * x).toFixed(0)}%`;
    return {
      summary: `unsure threshold ${fitted.threshold.toFixed(3)} (val: the model would be asked on ${percent(fitted.val.callRate)} of ${fitted.val.queries} queries, ${fitted.val.failuresCaught} of ${fitted.val.offlineFailures} offline misses among them); ${fitted.examples.length} few-shot examples`,
      details: {
        threshold: fitted.threshold,
        val: fitted.val,
        examples: fitted.examples.map((e) => e.query),
      },
    };
  },
};

export const morOfflineStack: StackEntry = {
  name: 'mor-offline',
  description: builtinStackDescriptions['mor-offline'],
  create: (store) =>
    mixedDefinition(
      'mor-offline',
      store.context,
      new SchemaPlanner({ artifact: schemaPlannerRef }),
      'intersect',
      0,
    ),
  training: [schemaPlannerTraining, morOfflineTraining],
};

export const morStack: StackEntry = {
  name: 'mor',
  description: builtinStackDescriptions['mor'],
  create: (store, options) =>
    mixedDefinition(
      'mor',
      withModel(store, options),
      new LlmPathPlanner({
        fallback: new SchemaPlanner({ artifact: schemaPlannerRef }),
        when: llmWhenOf(options) ?? 'unsure',
        artifact: morPlannerRef.name,
        ...stageTimeout(options),
      }),
      'intersect',
      // One planner call per query at most.
      options.llmBudget ?? 1,
    ),
  training: [morTraining],
};

/** MoR, offline and with an LLM planner. */
export const morStacks: readonly StackEntry[] = [morOfflineStack, morStack];
