export { type AbortingContext, type AbortMoment, abortingContext } from './aborting-context.ts';
export { awkwardQueries } from './awkward-queries.ts';
export { batchLimitedContext, expectNoOversizedBatches } from './batch-limited-context.ts';
export { checkStageAbort } from './check-stage-abort.ts';
export { type CriticSuiteOptions, runCriticSuite, verdictProblems } from './critic-suite.ts';
export { criticFeedbackKinds } from './critic-feedback-kinds.ts';
export { crowdedSkb } from './crowded-skb.ts';
export {
  type ExpanderSuiteOptions,
  expanderQueries,
  expansionProblems,
  runExpanderSuite,
} from './expander-suite.ts';
export { type GraphStoreSuiteOptions, runGraphStoreSuite } from './graph-store-suite.ts';
export { describeError, isAbortError } from './is-abort-error.ts';
export { type LinkingPlannerOptions, type LinkingRelation, linkingPlanner } from './linking-planner.ts';
export { anchorNodeProblems, planProblems } from './plan-problems.ts';
export {
  checkPlannerStoreIsolation,
  type PlannerSuiteOptions,
  plannerQueries,
  runPlannerSuite,
} from './planner-suite.ts';
export {
  type RecordedTextSearch,
  type RecordingTextIndex,
  recordingTextIndex,
} from './recording-text-index.ts';
export { type RerankerSuiteOptions, runRerankerSuite } from './reranker-suite.ts';
export {
  type RetrieverSuiteOptions,
  resultProblems,
  retrieverQueries,
  runRetrieverSuite,
  traceProblems,
} from './retriever-suite.ts';
export { type StoreContextOptions, storeContext } from './store-context.ts';
export { hostileQueries, runTextIndexSuite, type TextIndexSuiteOptions } from './text-index-suite.ts';
export {
  checkPreparedHandle,
  checkTraverserStoreIsolation,
  runTraverserSuite,
  type TraverseJob,
  type TraverserSuiteOptions,
  toyNikonPlan,
} from './traverser-suite.ts';
export { toVariantPlan, variantId, variantNames, variantSkb } from './variant-skb.ts';
export { runVectorIndexSuite, toyVectors, type VectorIndexSuiteOptions } from './vector-index-suite.ts';
