export { type GroundedRoute, groundRouterOutput } from './ground-router-output.ts';
export {
  HybgragPlanner,
  type HybgragPlannerOptions,
  HybgragRouter,
  type HybgragRouterOptions,
  type RouteDecision,
} from './hybgrag-planner.ts';
export {
  LlmHybgragPlanner,
  type LlmHybgragPlannerOptions,
  LlmHybgragRouter,
  type LlmHybgragRouterOptions,
} from './llm-hybgrag-planner.ts';
export type { OfflineRouteOptions } from './offline-route.ts';
export { type RefineOptions, refineRoute } from './refine-route.ts';
export {
  type ExampleCandidate,
  fitRouterExamples,
  type RouterAction,
  type RouterExample,
  type RouterRelation,
  routerAction,
  routerExamplesArtifact,
} from './router-examples.ts';
export { type RouterOutput, routerOutputSchema } from './router-prompt.ts';
export {
  type RoutedPlan,
  type RouteChoice,
  type RouteEntity,
  type RouteRound,
  type RouteState,
  roundFault,
  routeOf,
} from './route-state.ts';
