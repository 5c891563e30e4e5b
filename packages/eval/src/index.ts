export { compareStacks, type StackComparison } from './compare-stacks.ts';
export {
  type Evaluation,
  type EvaluateStacksOptions,
  evaluateStacks,
  type QueryRecord,
  type RankedNode,
  type StackEvaluation,
  summarizeTrace,
  type TraceSummary,
} from './evaluate-stacks.ts';
export { formatPercent, roundPercent } from './format-percent.ts';
export { type EvaluationSummary, evaluationMarkdown, evaluationSummary } from './evaluation-report.ts';
export {
  type PairedBootstrapOptions,
  type PairedDifference,
  pairedBootstrap,
  quantileSorted,
} from './paired-bootstrap.ts';
export {
  distinctRanking,
  meanMetricsPercent,
  metricNames,
  type QueryMetrics,
  rankingMetrics,
  targetRanking,
} from './ranking-metrics.ts';
export { listQuerySets, readQuerySet } from './read-query-set.ts';
export {
  type SynthesizedQueries,
  type SynthesizeQueriesOptions,
  synthesizeQueries,
  typeWord,
} from './synthesize-queries.ts';
