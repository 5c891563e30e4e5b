import { artifactName, createRetriever, type StackDefinition, WeftError } from '@weft/core';
import { isLlmWhen, type LlmWhen } from '@weft/llm';
import { loadSchemaPlannerModel, SchemaPlanner } from '@weft/planner-schema';
import { CypherPlanner } from '@weft/planner-llm-cypher';
import {
  type FewShotCandidate,
  fitLlmPathPlanner,
  LlmPathPlanner,
  saveLlmPathPlannerModel,
  type ThresholdExample,
} from '@weft/planner-llm-paths';
import { ListwiseLlmReranker } from '@weft/reranker-llm';
import { TrajectoryReranker } from '@weft/reranker-trajectory';
import type { RetrievalContext, TraverserV1 } from '@weft/spec';
import { FocusedTraverser } from '@weft/traverser-focused';
import { MixedTraverser } from '@weft/traverser-mor';
import { offlineStacks } from './offline-stacks.ts';
import { spread } from './spread.ts';
import { type StackCreateOptions, type StackEntry, type StackStore, stageTimeout } from './stack-registry.ts';

/**
 * The LLM stacks: MoR with an LLM planner (`mor`) and FocusedRetriever with a Cypher planner and an
 * LLM reranker (`focused`). Both are built with `StackCreateOptions.languageModel`; without one they
 * run their offline fallbacks (the planners and reranker say so in the trace).
 */

/**
 * What `createStack` may pass an LLM stack besides `StackCreateOptions`: when its planner asks the
 * model (`--llm-when`). Read leniently: the registry hands options through as given.
 */
export interface LlmStackCreateOptions extends StackCreateOptions {
  readonly llmWhen?: LlmWhen;
}

function llmWhenOf(options: StackCreateOptions): LlmWhen | undefined {
  const value = (options as LlmStackCreateOptions).llmWhen;
  if (value === undefined) return undefined;
  if (!isLlmWhen(value))
    throw new WeftError({
      code: 'WEFT_BAD_INPUT',
      message: `llmWhen must be unsure, always or never, got ${JSON.stringify(value)}`,
    });
  return value;
}

function withModel(store: StackStore, options: StackCreateOptions): RetrievalContext {
  return { ...store.context, ...(options.languageModel ? { languageModel: options.languageModel } : {}) };
}

/** The offline planner's artifact, shared with the offline stacks (the offline half of both). */
const offlinePlanner = artifactName('offline', 'planner-schema');
/** mor's traverser and reranker are mor-offline's: the reranker that stack fitted serves both. */
const morReranker = artifactName('mor-offline', 'reranker-trajectory');
const morPlanner = artifactName('mor', 'planner-llm-paths');

/** Val and train queries per set the threshold and the examples are chosen from. */
const valPerSet = 120;
const trainPerSet = 60;

function morDefinition(
  context: RetrievalContext,
  planner: LlmPathPlanner | SchemaPlanner,
  budget: number,
): StackDefinition {
  return {
    name: 'mor',
    context,
    planner,
    traversers: [new MixedTraverser({ name: 'mor', combine: 'intersect' })],
    rerankers: [new TrajectoryReranker({ artifact: morReranker })],
    llmBudget: budget,
  };
}

const mor: StackEntry = {
  name: 'mor',
  description:
    'MoR with an LLM planner: typed reasoning paths grounded on the schema, asked only when the offline planner is unsure (--llm-when); mixed traversal, trajectory reranker; offline without a model',
  create: (store, options) =>
    morDefinition(
      withModel(store, options),
      new LlmPathPlanner({
        fallback: new SchemaPlanner({ artifact: offlinePlanner }),
        when: llmWhenOf(options) ?? 'unsure',
        artifact: morPlanner,
        ...stageTimeout(options),
      }),
      // One planner call per query at most.
      options.llmBudget ?? 1,
    ),
  /**
   * Fits when to ask the model: the offline stack runs on val, and the planner's confidence
   * threshold that best separates its misses from its hits is kept; train queries it answers right
   * become few-shot examples. The offline parts (planner, reranker) are mor-offline's, fitted here
   * first when this run has not fitted them yet.
   */
  async train(store, options) {
    const notes: string[] = [];
    const planner = await loadSchemaPlannerModel(options.artifacts, offlinePlanner);
    const reranker = await options.artifacts.get(morReranker);
    if (planner.status !== 'loaded' || reranker === undefined) {
      const offline = offlineStacks.find((entry) => entry.name === 'mor-offline')!;
      const report = await offline.train!(store, options);
      notes.push(`mor-offline fitted first (${report.summary})`);
    }
    const model = await loadSchemaPlannerModel(options.artifacts, offlinePlanner);
    if (model.status !== 'loaded')
      throw new WeftError({
        code: 'WEFT_STAGE_FAILED',
        message: `mor: the offline planner did not load (${model.message})`,
      });
    const context: RetrievalContext = { ...store.context, artifacts: options.artifacts };
    const retriever = createRetriever(morDefinition(context, new SchemaPlanner({ model: model.value }), 0));
    const relational = options.sets.filter((set) => !set.textOnly);
    const run = async (query: string, answers: readonly string[]) => {
      options.abortSignal?.throwIfAborted();
      const { ranking, trace } = await retriever.doRetrieve({ query, limit: 20 });
      const top = ranking[0];
      return {
        trace,
        correct: top !== undefined && answers.includes(top.id),
        structural: (top?.scores.structure ?? 0) > 0,
      };
    };
    const valQueries = relational.flatMap((set) => spread(set.val, valPerSet));
    const trainQueries = relational.flatMap((set) => spread(set.train, trainPerSet));
    const total = valQueries.length + trainQueries.length;
    const val: ThresholdExample[] = [];
    for (const query of valQueries) {
      const { trace, correct } = await run(query.query, query.answers);
      val.push({ confidence: trace.plan?.confidence ?? 0, correct });
      options.onProgress?.('threshold', val.length, total);
    }
    const train: FewShotCandidate[] = [];
    for (const query of trainQueries) {
      const { trace, correct, structural } = await run(query.query, query.answers);
      if (trace.plan) train.push({ query: query.query, plan: trace.plan, correct: correct && structural });
      options.onProgress?.('examples', val.length + train.length, total);
    }
    const fitted = fitLlmPathPlanner({ val, train });
    await saveLlmPathPlannerModel(options.artifacts, morPlanner, fitted);
    const percent = (x: number) => `${(100 * x).toFixed(0)}%`;
    return {
      summary: `${notes.length ? `${notes.join('; ')}; ` : ''}unsure threshold ${fitted.threshold.toFixed(3)} (val: the model would be asked on ${percent(fitted.val.callRate)} of ${fitted.val.queries} queries, ${fitted.val.failuresCaught} of ${fitted.val.offlineFailures} offline misses among them); ${fitted.examples.length} few-shot examples`,
      details: {
        threshold: fitted.threshold,
        val: fitted.val,
        examples: fitted.examples.map((e) => e.query),
      },
    };
  },
};

const focused: StackEntry = {
  name: 'focused',
  description:
    'FocusedRetriever: the LLM writes Cypher (read-only, parsed and grounded, never run), constraint grounding, listwise LLM reranker; offline without a model',
  create: (store, options) => ({
    name: 'focused',
    context: withModel(store, options),
    planner: new CypherPlanner({
      fallback: new SchemaPlanner({ artifact: offlinePlanner }),
      when: llmWhenOf(options) ?? 'always',
      ...stageTimeout(options),
    }),
    traversers: [new FocusedTraverser() as TraverserV1],
    rerankers: [new ListwiseLlmReranker({ topK: 20, maxCalls: 1, ...stageTimeout(options) })],
    // One Cypher query and one listwise ranking per query.
    llmBudget: options.llmBudget ?? 2,
  }),
};

export const llmStacks: readonly StackEntry[] = [mor, focused];
