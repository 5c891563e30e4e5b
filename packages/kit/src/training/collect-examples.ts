import type { RetrievalResult, RetrieverV1, SkbQuery, TrainOptionsV1 } from '@weft/spec';

/**
 * A training step can spread its own `TrainOptionsV1` in (`{ ...options, limit, label }`): its
 * `onProgress` and `abortSignal` are the ones used.
 */
export interface CollectExamplesOptions extends Pick<TrainOptionsV1, 'onProgress' | 'abortSignal'> {
  /** Candidates kept per query. */
  readonly limit: number;
  /** What the progress reports count. */
  readonly label?: string;
}

/**
 * Runs `retriever` (usually a stack without the stage being fitted, e.g. without its rerankers) on
 * each query and turns what it found into a training example; `toExample` returns undefined to skip
 * a query. The one loop every trainer that learns from a stack's own candidates uses.
 */
export async function collectExamples<Q extends { readonly query: SkbQuery }, E>(
  retriever: RetrieverV1,
  queries: readonly Q[],
  options: CollectExamplesOptions,
  toExample: (result: RetrievalResult, item: Q) => E | undefined,
): Promise<E[]> {
  const out: E[] = [];
  let done = 0;
  for (const item of queries) {
    options.abortSignal?.throwIfAborted();
    const result = await retriever.doRetrieve({ query: item.query.query, limit: options.limit });
    const example = toExample(result, item);
    if (example !== undefined) out.push(example);
    done++;
    options.onProgress?.(options.label ?? 'examples', done, queries.length);
  }
  return out;
}
