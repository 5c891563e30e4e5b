export { baselineStacks } from './baseline-stacks.ts';
export { builtinStacks, createStack, createStackRegistry } from './builtin-stacks.ts';
export { defaultStack } from './default-stack.ts';
export { offlineStacks } from './offline-stacks.ts';
export {
  type StackCreateOptions,
  type StackEntry,
  StackRegistry,
  type StackStore,
  type StackTrainOptions,
  type StackTrainReport,
  type TrainingSet,
} from './stack-registry.ts';
export { type TrainStacksOptions, type TrainStacksResult, trainStacks } from './train-stacks.ts';
export { loadTrainingSets, synthesizedSets, synthesizedTextSet } from './training-sets.ts';
