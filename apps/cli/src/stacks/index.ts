/**
 * The stacks `weft` knows. Each stack file registers its entries when imported; add yours with one
 * import line below (registration order is listing order).
 */
import './baseline-stacks.ts';
import './offline-stacks.ts';

export {
  buildStack,
  defaultStackName,
  findStack,
  registerStacks,
  type StackCreateOptions,
  type StackEntry,
  stackEntries,
  type StackTrainOptions,
  type StackTrainReport,
  type TrainingSet,
} from './stack-registry.ts';
