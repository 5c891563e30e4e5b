import { searchText } from '@weft/kit';
import type { Candidate, TraverseOptions, TraverserV1 } from '@weft/spec';
import { hitCandidates, searchTypes } from './target-types.ts';

export interface TextSearchTraverserOptions {
  /** Shown in traces (default `'text-search'`). */
  readonly name?: string;
  /** Search `plan.restriction` instead of the whole query (default false: the query as asked). */
  readonly useRestriction?: boolean;
  /**
   * Look up each candidate's node type in the graph when several types were searched (default false:
   * hits are of the searched types anyway, and a lookup per query costs a graph round trip).
   */
  readonly resolveTypes?: boolean;
  /**
   * The field of a `TextIndexV2` to rank by, e.g. `combined` for relation-aware BM25 (default: the
   * index's document field). The candidates' score key follows: `bm25` for the document,
   * `bm25Relations` for `combined`, `bm25:<field>` otherwise.
   */
  readonly field?: string;
}

function scoreKey(field: string | undefined): string {
  if (field === undefined || field === 'document') return 'bm25';
  return field === 'combined' ? 'bm25Relations' : `bm25:${field}`;
}

/**
 * BM25 over the documents (or another field) of the plan's target types (or the schema's): the
 * lexical baseline. Each
 * candidate has one trajectory of one hop, reached by `'text'`, with its BM25 score.
 */
export class TextSearchTraverser implements TraverserV1 {
  readonly specificationVersion = 'v1';
  readonly name: string;
  private readonly options: TextSearchTraverserOptions;

  constructor(options: TextSearchTraverserOptions = {}) {
    this.name = options.name ?? 'text-search';
    this.options = options;
  }

  async doTraverse({ query, plan, limit, context }: TraverseOptions): Promise<Candidate[]> {
    const text = this.options.useRestriction ? plan.restriction : query;
    const types = searchTypes(plan, context.schema);
    const [hits = []] = await searchText(context.text, [text], {
      limit,
      ...(this.options.field ? { field: this.options.field } : {}),
      ...(types ? { filter: { nodeTypes: types } } : {}),
      ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
    });
    return hitCandidates(hits, {
      types,
      resolveTypes: this.options.resolveTypes === true,
      context,
      via: 'text',
      scoreName: scoreKey(this.options.field),
      source: this.name,
    });
  }
}
