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

/** How common the terms of a text are in a field: what an index knows of its own vocabulary. */
export interface TermStatistics {
  /** Documents in the field (nodes with a non-empty value). */
  readonly documents: number;
  /** The text's terms as the index analyses them (stemmed, stop words removed), each with its document frequency. */
  readonly terms: readonly { readonly term: string; readonly documentFrequency: number }[];
}

export interface TermStatisticsOptions {
  readonly texts: readonly string[];
  /** Default: the index's `defaultField`. */
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
  /**
   * Optional: the document frequencies of each text's terms (one entry per text, in order), so a
   * stage can tell a rare name ("Charizard") from a common word ("fire") without a second analyser.
   */
  doTermStatistics?(options: TermStatisticsOptions): Promise<TermStatistics[]>;
  close(): Promise<void>;
}
