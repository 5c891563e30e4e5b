export {
  type FewShotCandidate,
  fitLlmPathPlanner,
  pickFewShotExamples,
  type ThresholdExample,
} from './fit-llm-path-planner.ts';
export { type GroundedPathPlan, groundPathPlan } from './ground-path-plan.ts';
export { LlmPathPlanner, type LlmPathPlannerOptions } from './llm-path-planner.ts';
export {
  type LlmPathPlannerModel,
  llmPathPlannerArtifact,
  type PathPlanExample,
} from './path-planner-artifact.ts';
