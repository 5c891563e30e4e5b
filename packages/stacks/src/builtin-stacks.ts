import { baselineStacks } from './baseline-stacks.ts';
import { defaultStack } from './default-stack.ts';
import { hybgragKarStacks } from './hybgrag-kar-stacks.ts';
import { llmStacks } from './llm-stacks.ts';
import { mixragStacks } from './mixrag-stacks.ts';
import { offlineStacks } from './offline-stacks.ts';
import { StackRegistry, type StackCreateOptions, type StackStore } from './stack-registry.ts';
import type { RetrieverV1 } from '@weft/spec';
import type { StackEntry } from './stack-registry.ts';

/** Weft's own stacks, in listing order: the baselines first, then the hybrid stacks. */
export function builtinStacks(): readonly StackEntry[] {
  return [
    ...baselineStacks,
    defaultStack,
    ...offlineStacks,
    ...hybgragKarStacks,
    ...llmStacks,
    ...mixragStacks,
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
