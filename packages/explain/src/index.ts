export {
  fetchLabels,
  mentionedIds,
  type NodeLabels,
  noResultReason,
  renderExplanation,
  renderHop,
  renderModelCalls,
  renderPlan,
  renderPlanPath,
  renderReached,
  renderTrajectory,
  traceWarnings,
} from './explain-retrieval.ts';
export {
  type LlmUsage,
  llmUsage,
  type QueryResultJson,
  type QueryResultJsonOptions,
  type QueryResultRow,
  queryResultJson,
} from './query-result-json.ts';
