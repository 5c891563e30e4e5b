import type { LanguageModelV4 } from '@ai-sdk/provider';
import { createRetriever, type StackDefinition, WeftError } from '@weft/core';
import type { ArtifactStore, RetrievalContext, RetrieverV1, SkbQuery } from '@weft/spec';

/** What a stack needs of a store: the retrieval context (an `OpenedStore` of `@weft/store` is one). */
export interface StackStore {
  readonly context: RetrievalContext;
}

/** What `createStack` hands a stack's factory. */
export interface StackCreateOptions {
  /** For LLM stages; absent when no model is configured (offline stacks need none). */
  readonly languageModel?: LanguageModelV4;
  /** LLM calls allowed per query, when the caller sets a budget. */
  readonly llmBudget?: number;
  /** Longest wait for one model call, in milliseconds, for every LLM stage (default: each stage's 30 s). */
  readonly modelTimeoutMs?: number;
}

/** The stage option that carries `modelTimeoutMs`, when the caller set one. */
export function stageTimeout(options: StackCreateOptions): { readonly timeoutMs?: number } {
  return options.modelTimeoutMs === undefined ? {} : { timeoutMs: options.modelTimeoutMs };
}

/** One query set's training material: fit on `train`, choose settings on `val`. */
export interface TrainingSet {
  readonly name: string;
  readonly train: readonly SkbQuery[];
  readonly val: readonly SkbQuery[];
  /**
   * Queries without a relational part: they teach when the text alone should decide, and are no
   * material for learning relations.
   */
  readonly textOnly?: boolean;
  /** Made by a synthesiser from the KB itself rather than written by people. */
  readonly synthesized?: boolean;
}

export interface StackTrainOptions {
  readonly sets: readonly TrainingSet[];
  /** Where fitted parts go; at query time the same names are read back through `context.artifacts`. */
  readonly artifacts: ArtifactStore;
  /** One line for people. */
  readonly log?: (line: string) => void;
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
 * A named retrieval stack. `create` returns the stages (wrapped with `createRetriever`) or a
 * finished retriever; `train`, when present, fits the stack's learned parts and writes them into
 * `options.artifacts` under names of the form `<stack>.<component>` (`artifactName`).
 */
export interface StackEntry {
  readonly name: string;
  /** One line for `--help` and listings. */
  readonly description: string;
  create(
    store: StackStore,
    options: StackCreateOptions,
  ): StackDefinition | RetrieverV1 | Promise<StackDefinition | RetrieverV1>;
  train?(store: StackStore, options: StackTrainOptions): Promise<StackTrainReport>;
}

const validName = /^[a-z0-9][a-z0-9-]*$/;

function isRetriever(value: StackDefinition | RetrieverV1): value is RetrieverV1 {
  return typeof (value as RetrieverV1).doRetrieve === 'function';
}

/**
 * The stacks an application knows, by name, in registration order. Nothing registers itself: build
 * one with `createStackRegistry()` (the built-in stacks) and add your own with `register`.
 */
export class StackRegistry {
  private readonly entries = new Map<string, StackEntry>();

  constructor(entries: readonly StackEntry[] = []) {
    this.register(...entries);
  }

  /** Adds stacks; a name can be registered once. Returns the registry for chaining. */
  register(...entries: readonly StackEntry[]): this {
    for (const entry of entries) {
      if (!validName.test(entry.name)) {
        throw new WeftError({
          code: 'WEFT_BAD_INPUT',
          message: `invalid stack name "${entry.name}" (lower-case letters, digits and dashes)`,
        });
      }
      if (this.entries.has(entry.name)) {
        throw new WeftError({ code: 'WEFT_BAD_INPUT', message: `stack "${entry.name}" is registered twice` });
      }
      this.entries.set(entry.name, entry);
    }
    return this;
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  get(name: string): StackEntry {
    const entry = this.entries.get(name);
    if (!entry) {
      throw new WeftError({
        code: 'WEFT_BAD_INPUT',
        message: `unknown stack "${name}" (stacks: ${[...this.entries.keys()].join(', ')})`,
      });
    }
    return entry;
  }

  list(): readonly StackEntry[] {
    return [...this.entries.values()];
  }

  /** `default` when registered, else the first stack. */
  get defaultName(): string {
    if (this.entries.has('default')) return 'default';
    const first = this.entries.keys().next();
    if (first.done) throw new WeftError({ code: 'WEFT_NOT_FOUND', message: 'the stack registry is empty' });
    return first.value;
  }

  /** Builds a stack over a store. */
  async create(name: string, store: StackStore, options: StackCreateOptions = {}): Promise<RetrieverV1> {
    const built = await this.get(name).create(store, options);
    return isRetriever(built) ? built : createRetriever(built);
  }
}
