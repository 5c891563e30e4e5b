import type { LanguageModelV4 } from '@ai-sdk/provider';
import { createRetriever, type StackDefinition, WeftError } from '@weft/core';
import type { ArtifactStore, RetrieverV1, SkbQuery } from '@weft/spec';
import type { OpenedStore } from '../store/store-manifest.ts';

/** What `weft query` / `weft eval` hand a stack when they build it. */
export interface StackCreateOptions {
  /** For LLM stages; absent when no model is configured (offline stacks need none). */
  readonly languageModel?: LanguageModelV4;
  /** LLM calls allowed per query, when the caller sets a budget. */
  readonly llmBudget?: number;
}

/** One query set's training material: fit on `train`, choose settings on `val`. */
export interface TrainingSet {
  readonly name: string;
  readonly train: readonly SkbQuery[];
  readonly val: readonly SkbQuery[];
  /**
   * Queries without a relational part (synthesised from node descriptions): they teach when the
   * text alone should decide, and are no material for learning relations.
   */
  readonly textOnly?: boolean;
}

export interface StackTrainOptions {
  readonly sets: readonly TrainingSet[];
  /**
   * Where fitted parts go. A fresh store that replaces the store's artifacts when every stack has
   * trained; at query time the same names are read back through `store.context.artifacts`.
   */
  readonly artifacts: ArtifactStore;
  /** One line for people (stderr). */
  readonly log: (line: string) => void;
  readonly onProgress?: (label: string, done: number, total?: number) => void;
  readonly abortSignal?: AbortSignal;
}

export interface StackTrainReport {
  /** One line: what was fitted and how well it did on val. */
  readonly summary: string;
  /** JSON-safe figures for `weft train --json`. */
  readonly details?: Readonly<Record<string, unknown>>;
}

/**
 * A named retrieval stack the CLI can build over an opened store. `create` returns either the
 * stages (the CLI wraps them with `createRetriever`) or a finished retriever. `train`, when present,
 * fits the stack's learned parts for `weft train`.
 */
export interface StackEntry {
  readonly name: string;
  /** One line for `--help` and listings. */
  readonly description: string;
  create(
    store: OpenedStore,
    options: StackCreateOptions,
  ): StackDefinition | RetrieverV1 | Promise<StackDefinition | RetrieverV1>;
  train?(store: OpenedStore, options: StackTrainOptions): Promise<StackTrainReport>;
}

const registry = new Map<string, StackEntry>();

/**
 * Adds stacks to the registry. Stack files call this at module level and are imported once from
 * `stacks/index.ts`; a name can be registered only once.
 */
export function registerStacks(...entries: readonly StackEntry[]): void {
  for (const entry of entries) {
    if (!/^[a-z0-9][a-z0-9-]*$/.test(entry.name)) throw new Error(`invalid stack name "${entry.name}"`);
    if (registry.has(entry.name)) throw new Error(`stack "${entry.name}" is registered twice`);
    registry.set(entry.name, entry);
  }
}

/** Every registered stack, in registration order. */
export function stackEntries(): readonly StackEntry[] {
  return [...registry.values()];
}

export function findStack(name: string): StackEntry {
  const entry = registry.get(name);
  if (!entry) {
    throw new WeftError({
      code: 'WEFT_BAD_INPUT',
      message: `unknown stack "${name}" (stacks: ${[...registry.keys()].join(', ')})`,
    });
  }
  return entry;
}

/** The stack `weft query` and `weft demo` use when none is named: `default` once registered. */
export function defaultStackName(): string {
  return registry.has('default') ? 'default' : 'hybrid-rrf';
}

function isRetriever(value: StackDefinition | RetrieverV1): value is RetrieverV1 {
  return typeof (value as RetrieverV1).doRetrieve === 'function';
}

/** Builds a registered stack over a store. */
export async function buildStack(
  name: string,
  store: OpenedStore,
  options: StackCreateOptions = {},
): Promise<RetrieverV1> {
  const built = await findStack(name).create(store, options);
  return isRetriever(built) ? built : createRetriever(built);
}
