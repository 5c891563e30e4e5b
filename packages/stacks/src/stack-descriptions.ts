import { type BuiltinStackName, builtinStacks } from './builtin-stacks.ts';

export type { BuiltinStackName };

/**
 * What listings (`weft --help`, `GET /stacks`) say of each built-in stack: the descriptions of the
 * listing in `builtin-stacks.ts` (written there, beside each stack's name, so that a registry names
 * and describes every stack without importing any), by name, for the stacks' modules to quote.
 */
export const builtinStackDescriptions: Readonly<Record<BuiltinStackName, string>> = Object.fromEntries(
  builtinStacks().map((stack) => [stack.name, stack.description]),
) as Record<BuiltinStackName, string>;
