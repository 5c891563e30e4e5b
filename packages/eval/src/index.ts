export {
  anchorLinking,
  goldAnchorsOf,
  type GoldPath,
  type LinkingSummary,
  type QueryLinking,
} from './anchor-linking.ts';
export { compareStacks, type StackComparison } from './compare-stacks.ts';
export {
  type Evaluation,
  type EvaluateStacksOptions,
  evaluateStacks,
  type QueryRecord,
  type RankedNode,
  type StackEvaluation,
  type TraceSummary,
} from './evaluate-stacks.ts';
export {
  type EvaluationSummary,
  evaluationMarkdown,
  evaluationSummary,
  type LinkingFigures,
} from './evaluation-report.ts';
export { oracleAnchors, type PlanTransform, replaceAnchors, withPlanTransform } from './oracle-anchors.ts';
export { type GoldPlanInput, oraclePlans } from './oracle-plans.ts';
export { formatPercent } from './format-percent.ts';
export { type PairedBootstrapOptions, type PairedDifference, pairedBootstrap } from './paired-bootstrap.ts';
export { type QueryMetrics, rankingMetrics } from './ranking-metrics.ts';
export { listQuerySets, readQuerySet } from './read-query-set.ts';
export {
  type SynthesizedQueries,
  type SynthesizeQueriesOptions,
  synthesizeQueries,
} from './synthesize-queries.ts';
