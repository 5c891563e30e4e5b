import type { IndexHit, TextIndexV1, TextIndexV2, TextSearchOptionsV2 } from '@weft/spec';

/** One `doSearch` call as a recording index saw it. */
export interface RecordedTextSearch {
  readonly queries: readonly string[];
  readonly limit: number;
  readonly field?: string;
}

export interface RecordingTextIndex {
  /** Answers like the wrapped index, declaring `maxQueriesPerCall` as asked. */
  readonly index: TextIndexV1 | TextIndexV2;
  readonly calls: readonly RecordedTextSearch[];
  /** Calls that sent more queries than the declared `maxQueriesPerCall`. */
  oversized(): RecordedTextSearch[];
}

/**
 * Wraps a text index to record every `doSearch` call, declaring another `maxQueriesPerCall` (to
 * check that callers split batches: a call with more queries than that is the caller's fault).
 * Oversized calls are still answered, so one run shows every offending call rather than the first.
 * Keeps the wrapped index's version and fields.
 */
export function recordingTextIndex(
  inner: TextIndexV1 | TextIndexV2,
  options: { readonly maxQueriesPerCall?: number } = {},
): RecordingTextIndex {
  const maxQueriesPerCall = options.maxQueriesPerCall ?? inner.maxQueriesPerCall;
  const calls: RecordedTextSearch[] = [];
  const doSearch = (search: TextSearchOptionsV2): Promise<IndexHit[][]> => {
    calls.push({
      queries: [...search.queries],
      limit: search.limit,
      ...(search.field !== undefined ? { field: search.field } : {}),
    });
    return inner.doSearch(search);
  };
  const close = () => inner.close();
  const index: TextIndexV1 | TextIndexV2 =
    inner.specificationVersion === 'v2'
      ? {
          specificationVersion: 'v2',
          provider: inner.provider,
          maxQueriesPerCall,
          fields: inner.fields,
          defaultField: inner.defaultField,
          doSearch,
          close,
        }
      : { specificationVersion: 'v1', provider: inner.provider, maxQueriesPerCall, doSearch, close };
  return {
    index,
    calls,
    oversized: () => calls.filter((call) => call.queries.length > maxQueriesPerCall),
  };
}
