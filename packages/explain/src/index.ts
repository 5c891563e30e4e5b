export {
  fetchLabels,
  mentionedIds,
  type NodeLabels,
  noResultReason,
  renderExplanation,
  renderHop,
  renderPlan,
  renderPlanPath,
  renderReached,
  renderTrajectory,
  traceWarnings,
} from './explain-retrieval.ts';
