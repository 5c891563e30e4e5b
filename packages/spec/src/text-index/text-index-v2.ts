import type { IndexHit } from '../index-filter.ts';
import type { TextSearchOptions } from './text-index-v1.ts';

/** One searchable field of a text index. */
export interface TextFieldInfo {
  /** e.g. `document` (name, aliases, text), `relations` (neighbour names by relation), `combined`. */
  readonly name: string;
  /** What the field holds, for people and for LLM prompts. */
  readonly description: string;
}

export interface TextSearchOptionsV2 extends TextSearchOptions {
  /** The field to rank by (default: the index's `defaultField`). Unknown fields are an error. */
  readonly field?: string;
}

/**
 * A lexical index over node documents with several fields, each searchable on its own with its own
 * BM25 statistics (mFAR's multi-field view of a node: its own text, the names of its neighbours).
 * Implementations: `@weft/index-lancedb` (`LanceTextIndex`). Version 1 indexes one document per node.
 */
export interface TextIndexV2 {
  readonly specificationVersion: 'v2';
  readonly provider: string;
  /** How many queries one `doSearch` call accepts; callers split larger batches. */
  readonly maxQueriesPerCall: number;
  readonly fields: readonly TextFieldInfo[];
  /** The field searched when none is named: the node's own document. */
  readonly defaultField: string;

  /** One ranked list per query, in order, scored on one field. */
  doSearch(options: TextSearchOptionsV2): Promise<IndexHit[][]>;
  close(): Promise<void>;
}
