export { checkModelPlan, type ModelPlanCheck } from './check-model-plan.ts';
export { type ExecuteModelPlanOptions, executeModelPlan } from './execute-model-plan.ts';
export { QueryGraphReranker, QueryGraphTraverser } from './query-graph-execution.ts';
export { executedReadings, QueryGraphPlanner, type QueryGraphPlannerOptions } from './query-graph-planner.ts';
export {
  type QueryGraph,
  type QueryGraphOptions,
  type QueryGraphReading,
  searchQueryGraphs,
} from './query-graphs.ts';
