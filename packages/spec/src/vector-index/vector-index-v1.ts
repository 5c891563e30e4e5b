import type { IndexFilter, IndexHit } from '../index-filter.ts';

export interface VectorSearchOptions {
  /** One ranked list per vector, in order. Vectors must have `dimensions` entries. */
  readonly vectors: readonly (readonly number[])[];
  readonly limit: number;
  readonly filter?: IndexFilter;
  readonly abortSignal?: AbortSignal;
}

/**
 * A dense index over node embeddings, ranked by cosine similarity.
 * Text is embedded by the caller through an AI SDK embedding model (`embedMany` from `ai`).
 */
export interface VectorIndexV1 {
  readonly specificationVersion: 'v1';
  readonly provider: string;
  readonly dimensions: number;
  /** Identifies the embedding model the stored vectors came from, e.g. `'local:tfidf-lsa-256'`. */
  readonly embedderId: string;
  readonly maxQueriesPerCall: number;

  doSearch(options: VectorSearchOptions): Promise<IndexHit[][]>;
  close(): Promise<void>;
}
