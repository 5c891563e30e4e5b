/**
 * The stack registry and the built-in stacks' listing, without the stacks' code: importing this
 * entry point loads no stack; each is imported when it is first built or trained. The package's
 * main entry point exports the same, with the stacks themselves.
 */
export {
  type BuiltinStackListing,
  builtinStacks,
  createStack,
  createStackRegistry,
} from './builtin-stacks.ts';
export { type BuiltinStackName, builtinStackDescriptions } from './stack-listing.ts';
export {
  type DeferredStackEntry,
  type StackCreateOptions,
  type StackEntry,
  type StackListing,
  StackRegistry,
  type StackStore,
  stackTrains,
  stageTimeout,
  type TrainingSet,
} from './stack-registry.ts';
