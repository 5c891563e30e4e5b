import type { LanguageModelV4 } from '@ai-sdk/provider';
import { createRetriever, type StackDefinition } from '@weft/core';
import { WeftError } from '@weft/kit';
import type { LlmWhen } from '@weft/llm';
import type { RetrievalContext, RetrieverV1, TrainingSetV1, TrainingStepV1 } from '@weft/spec';

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
  /** When LLM planners ask the model (`--llm-when`); each LLM stack has its own default. */
  readonly llmWhen?: LlmWhen;
}

/** The stage option that carries `modelTimeoutMs`, when the caller set one. */
export function stageTimeout(options: StackCreateOptions): { readonly timeoutMs?: number } {
  return options.modelTimeoutMs === undefined ? {} : { timeoutMs: options.modelTimeoutMs };
}

/** One query set's training material: fit on `train`, choose settings on `val`. */
export type TrainingSet = TrainingSetV1;

/**
 * A named retrieval stack. `create` returns the stages (wrapped with `createRetriever`) or a
 * finished retriever; `training` lists the steps that fit what it reads from the store's artifacts
 * (`TrainingStepV1`): `trainStacks` fits each step once, after the steps whose artifacts it reads.
 */
export interface StackEntry {
  readonly name: string;
  /** One line for `--help` and listings. */
  readonly description: string;
  create(
    store: StackStore,
    options: StackCreateOptions,
  ): StackDefinition | RetrieverV1 | Promise<StackDefinition | RetrieverV1>;
  /**
   * The training steps whose artifacts the stack reads, its own and shared ones (the same step
   * object, or one with the same id, in several stacks is fitted once per run).
   */
  readonly training?: readonly TrainingStepV1[];
}

/**
 * A stack named and described before its code is imported: `load` imports it when it is first
 * built or trained, so a process that runs one stack loads that stack's packages only (importing
 * every built-in stack cost a cold `weft query` ~0.4 s). `trains` says whether the loaded entry has
 * training steps; the registry checks that it does.
 */
export interface DeferredStackEntry {
  readonly name: string;
  readonly description: string;
  readonly trains: boolean;
  load(): Promise<StackEntry>;
}

/** What a registry holds of a stack: the entry itself, or one that imports it when needed. */
export type StackListing = StackEntry | DeferredStackEntry;

/** Whether a stack has training steps (`weft train` fits it), without loading it. */
export function stackTrains(listing: StackListing): boolean {
  return 'load' in listing ? listing.trains : Boolean(listing.training?.length);
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
  private readonly listings = new Map<string, StackListing>();
  private readonly loaded = new Map<string, Promise<StackEntry>>();

  constructor(entries: readonly StackListing[] = []) {
    this.register(...entries);
  }

  /** Adds stacks; a name can be registered once. Returns the registry for chaining. */
  register(...entries: readonly StackListing[]): this {
    for (const entry of entries) {
      if (!validName.test(entry.name)) {
        throw new WeftError({
          code: 'WEFT_BAD_INPUT',
          message: `invalid stack name "${entry.name}" (lower-case letters, digits and dashes)`,
        });
      }
      if (this.listings.has(entry.name)) {
        throw new WeftError({ code: 'WEFT_BAD_INPUT', message: `stack "${entry.name}" is registered twice` });
      }
      this.listings.set(entry.name, entry);
    }
    return this;
  }

  has(name: string): boolean {
    return this.listings.has(name);
  }

  /** A stack's listing (name, description, whether it trains), without loading its code. */
  get(name: string): StackListing {
    const listing = this.listings.get(name);
    if (!listing) {
      throw new WeftError({
        code: 'WEFT_BAD_INPUT',
        message: `unknown stack "${name}" (stacks: ${[...this.listings.keys()].join(', ')})`,
      });
    }
    return listing;
  }

  list(): readonly StackListing[] {
    return [...this.listings.values()];
  }

  /** A stack's entry, its code imported on the first call. */
  entry(name: string): Promise<StackEntry> {
    const listing = this.get(name);
    if (!('load' in listing)) return Promise.resolve(listing);
    let loading = this.loaded.get(name);
    if (!loading) {
      loading = listing.load().then((entry) => {
        if (entry.name !== listing.name || Boolean(entry.training?.length) !== listing.trains) {
          throw new WeftError({
            code: 'WEFT_STAGE_FAILED',
            message: `stack "${name}" loaded as "${entry.name}" ${entry.training?.length ? 'with' : 'without'} training steps; its listing says ${listing.trains ? 'with' : 'without'}`,
          });
        }
        return entry;
      });
      loading.catch(() => this.loaded.delete(name));
      this.loaded.set(name, loading);
    }
    return loading;
  }

  /** Every stack's entry, in registration order (imports them all). */
  entries(): Promise<StackEntry[]> {
    return Promise.all(this.list().map((listing) => this.entry(listing.name)));
  }

  /** `default` when registered, else the first stack. */
  get defaultName(): string {
    if (this.listings.has('default')) return 'default';
    const first = this.listings.keys().next();
    if (first.done) throw new WeftError({ code: 'WEFT_NOT_FOUND', message: 'the stack registry is empty' });
    return first.value;
  }

  /** Builds a stack over a store. */
  async create(name: string, store: StackStore, options: StackCreateOptions = {}): Promise<RetrieverV1> {
    const built = await (await this.entry(name)).create(store, options);
    return isRetriever(built) ? built : createRetriever(built);
  }
}
