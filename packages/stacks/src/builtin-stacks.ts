import { WeftError } from '@weft/kit';
import type { RetrieverV1 } from '@weft/spec';
import {
  type DeferredStackEntry,
  type StackCreateOptions,
  type StackEntry,
  type StackListing,
  StackRegistry,
  type StackStore,
} from './stack-registry.ts';
import { type BuiltinStackModule, type BuiltinStackName, builtinStackListing } from './stack-listing.ts';

/** Imports a stack's module and returns the stacks it defines. */
type StackModule = () => Promise<readonly StackEntry[]>;

// Each method's stacks live in one module, imported when one of them is first used.
const stackModules = {
  'baseline-stacks': () => import('./baseline-stacks.ts').then((m) => m.baselineStacks),
  'default-stack': () => import('./default-stack.ts').then((m) => [m.defaultStack]),
  'mor-stacks': () => import('./mor-stacks.ts').then((m) => m.morStacks),
  'focused-stacks': () => import('./focused-stacks.ts').then((m) => m.focusedStacks),
  'hybgrag-stacks': () => import('./hybgrag-stacks.ts').then((m) => m.hybgragStacks),
  'kar-stacks': () => import('./kar-stacks.ts').then((m) => m.karStacks),
  'mixrag-stacks': () => import('./mixrag-stacks.ts').then((m) => m.mixragStacks),
  'ppr-stack': () => import('./ppr-stack.ts').then((m) => [m.pprStack]),
  // ./dev new … --stack <name> adds a module above this line.
} as const satisfies Record<BuiltinStackModule, StackModule>;
/** A built-in stack as the registry lists it: named, described and classified before its code is imported. */
export interface BuiltinStackListing extends DeferredStackEntry {
  readonly name: BuiltinStackName;
  /** Its stages ask the language model of `--model` (each falls back offline without one). */
  readonly llm: boolean;
  /** A yardstick every other stack is measured against (bm25, bm25-rel, vector, hybrid-rrf). */
  readonly baseline: boolean;
}

/** A built-in stack, imported from its module when first built or trained. */
function listing(source: (typeof builtinStackListing)[number]): BuiltinStackListing {
  const { name, description, trains } = source;
  const module: StackModule = stackModules[source.module];
  return {
    name,
    description,
    trains,
    llm: 'llm' in source,
    baseline: 'baseline' in source,
    load: async () => {
      const entry = (await module()).find((e) => e.name === name);
      if (!entry)
        throw new WeftError({ code: 'WEFT_NOT_FOUND', message: `stack "${name}" is not in its module` });
      return entry;
    },
  };
}

/**
 * Weft's own stacks, in listing order: the baselines, the default stack, then the method stacks,
 * offline and with an LLM (each method's stacks live in one module: `mor-stacks.ts`,
 * `focused-stacks.ts`, …, imported when the stack is first used).
 */
export function builtinStacks(): readonly BuiltinStackListing[] {
  return builtinStackListing.map(listing);
}

/** A registry holding `entries` (default: the built-in stacks); extend it with `register`. */
export function createStackRegistry(entries: readonly StackListing[] = builtinStacks()): StackRegistry {
  return new StackRegistry(entries);
}

/** Builds a named stack over a store, from `registry` (default: the built-in stacks). */
export function createStack(
  name: string,
  store: StackStore,
  options: StackCreateOptions & { readonly registry?: StackRegistry } = {},
): Promise<RetrieverV1> {
  const { registry, ...create } = options;
  return (registry ?? createStackRegistry()).create(name, store, create);
}
