import type { RetrieverV1 } from '@weft/spec';
import { baselineStacks } from './baseline-stacks.ts';
import { defaultStack } from './default-stack.ts';
import { focusedOfflineStack, focusedStack } from './focused-stacks.ts';
import { hybgragOfflineStack, hybgragStack } from './hybgrag-stacks.ts';
import { karOfflineStack, karStack } from './kar-stacks.ts';
import { mixragOfflineStack, mixragStack } from './mixrag-stacks.ts';
import { morOfflineStack, morStack } from './mor-stacks.ts';
import { pprStack } from './ppr-stack.ts';
import {
  type StackCreateOptions,
  type StackEntry,
  StackRegistry,
  type StackStore,
} from './stack-registry.ts';

/**
 * Weft's own stacks, in listing order: the baselines, the default stack, the offline method stacks,
 * then the LLM ones (each method's stacks live in one file: `mor-stacks.ts`, `focused-stacks.ts`, …).
 */
export function builtinStacks(): readonly StackEntry[] {
  return [
    ...baselineStacks,
    defaultStack,
    morOfflineStack,
    focusedOfflineStack,
    hybgragOfflineStack,
    hybgragStack,
    karOfflineStack,
    karStack,
    morStack,
    focusedStack,
    mixragOfflineStack,
    mixragStack,
    pprStack,
  ];
}

/** A registry holding `entries` (default: the built-in stacks); extend it with `register`. */
export function createStackRegistry(entries: readonly StackEntry[] = builtinStacks()): StackRegistry {
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
