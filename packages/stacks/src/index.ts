export * from './registry.ts';
export { baselineStacks } from './baseline-stacks.ts';
export { defaultStack, defaultTraining, lexicalPlannerRef, sharedLexicalPlanner } from './default-stack.ts';
export { focusedOfflineStack, focusedStack, focusedStacks } from './focused-stacks.ts';
export { hybgragOfflineStack, hybgragStack, hybgragStacks } from './hybgrag-stacks.ts';
export { karOfflineStack, karStack, karStacks } from './kar-stacks.ts';
export { mixragOfflineStack, mixragStack, mixragStacks } from './mixrag-stacks.ts';
export { morOfflineStack, morStack, morStacks } from './mor-stacks.ts';
export { schemaPlannerRef, schemaPlannerTraining } from './planner-schema-training.ts';
export { pprStack } from './ppr-stack.ts';
export {
  type TrainedStep,
  type TrainStacksOptions,
  type TrainStacksResult,
  trainStacks,
} from './train-stacks.ts';
export { loadTrainingSets, synthesizedSets, synthesizedTextSet } from './training-sets.ts';
