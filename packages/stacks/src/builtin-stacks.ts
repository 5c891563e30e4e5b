import { WeftError } from '@weft/kit';
import type { RetrieverV1 } from '@weft/spec';
import { type BuiltinStackName, builtinStackDescriptions } from './stack-descriptions.ts';
import {
  type DeferredStackEntry,
  type StackCreateOptions,
  type StackEntry,
  type StackListing,
  StackRegistry,
  type StackStore,
} from './stack-registry.ts';

/** A built-in stack, imported from its module (`load`, the module's stacks) when first built or trained. */
function builtin(
  name: BuiltinStackName,
  trains: boolean,
  load: () => Promise<readonly StackEntry[]>,
): DeferredStackEntry {
  return {
    name,
    description: builtinStackDescriptions[name],
    trains,
    load: async () => {
      const entry = (await load()).find((e) => e.name === name);
      if (!entry)
        throw new WeftError({ code: 'WEFT_NOT_FOUND', message: `stack "${name}" is not in its module` });
      return entry;
    },
  };
}

/**
 * Weft's own stacks, in listing order: the baselines, the default stack, the offline method stacks,
 * then the LLM ones (each method's stacks live in one module: `mor-stacks.ts`, `focused-stacks.ts`,
 * …, imported when the stack is first used).
 */
export function builtinStacks(): readonly StackListing[] {
  const baselines = () => import('./baseline-stacks.ts').then((m) => m.baselineStacks);
  const mor = () => import('./mor-stacks.ts').then((m) => m.morStacks);
  const focused = () => import('./focused-stacks.ts').then((m) => m.focusedStacks);
  const hybgrag = () => import('./hybgrag-stacks.ts').then((m) => m.hybgragStacks);
  const kar = () => import('./kar-stacks.ts').then((m) => m.karStacks);
  const mixrag = () => import('./mixrag-stacks.ts').then((m) => m.mixragStacks);
  return [
    builtin('bm25', false, baselines),
    builtin('bm25-rel', false, baselines),
    builtin('vector', false, baselines),
    builtin('hybrid-rrf', false, baselines),
    builtin('default', true, () => import('./default-stack.ts').then((m) => [m.defaultStack])),
    builtin('mor-offline', true, mor),
    builtin('focused-offline', false, focused),
    builtin('hybgrag-offline', true, hybgrag),
    builtin('hybgrag', true, hybgrag),
    builtin('kar-offline', true, kar),
    builtin('kar', false, kar),
    builtin('mor', true, mor),
    builtin('focused', false, focused),
    builtin('mixrag-offline', true, mixrag),
    builtin('mixrag', false, mixrag),
    builtin('ppr', false, () => import('./ppr-stack.ts').then((m) => [m.pprStack])),
  ];
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
