import type { IndexFilter, IndexHit } from '../index-filter.ts';

export interface TextSearchOptions {
  /** One ranked list is returned per query, in order. Any string is allowed: no query syntax. */
  readonly queries: readonly string[];
  readonly limit: number;
  readonly filter?: IndexFilter;
  readonly abortSignal?: AbortSignal;
}

/**
 * A lexical index over node documents (name, aliases and text) with BM25 scores.
 * Implementations: `@weft/index-lancedb` (`LanceTextIndex`), the reference one in `@weft/core/test`.
 */
export interface TextIndexV1 {
  readonly specificationVersion: 'v1';
  readonly provider: string;
  /** How many queries one `doSearch` call accepts; callers split larger batches. */
  readonly maxQueriesPerCall: number;

  doSearch(options: TextSearchOptions): Promise<IndexHit[][]>;
  close(): Promise<void>;
}
