import type { EmbeddingModelV4, LanguageModelV4 } from '@ai-sdk/provider';
import type { GraphStoreV1 } from './graph-store/graph-store-v1.ts';
import type { SkbSchema } from './skb/skb.ts';
import type { TextIndexV1 } from './text-index/text-index-v1.ts';
import type { TextIndexV2 } from './text-index/text-index-v2.ts';
import type { VectorIndexV1 } from './vector-index/vector-index-v1.ts';

/** Persisted artefacts of trained stages (classifiers, reranker weights), kept with the store. */
export interface ArtifactStore {
  get<T = unknown>(name: string): Promise<T | undefined>;
  put(name: string, value: unknown): Promise<void>;
}

/** What every stage may use. The pipeline builds it once per query. */
export interface RetrievalContext {
  readonly schema: SkbSchema;
  readonly graph: GraphStoreV1;
  /** The lexical index; version 2 adds fields (see `searchText` in `@weft/core`, which takes both). */
  readonly text: TextIndexV1 | TextIndexV2;
  readonly vector?: VectorIndexV1;
  /** Embeds queries for `vector`; must be the model the vectors were built with. */
  readonly embeddingModel?: EmbeddingModelV4;
  /**
   * For LLM stages. The pipeline hands each stage a wrapped model that counts calls and tokens
   * against the stack's LLM budget; absent for offline stacks.
   */
  readonly languageModel?: LanguageModelV4;
  readonly artifacts?: ArtifactStore;
  readonly abortSignal?: AbortSignal;
  /**
   * Reports something the caller must know although the stage still returns a result: a trained
   * model missing or stale, candidates without the scores a reranker reads, a fallback taken. The
   * pipeline records each message in the stage's trace (`StageTrace.warnings`).
   */
  readonly warn?: (message: string) => void;
}
