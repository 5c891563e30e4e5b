import type { Candidate } from '../traverser/candidate.ts';
import type { RetrievalTrace } from './retrieval-trace.ts';

export interface RetrieveOptions {
  readonly query: string;
  /** Length of the ranking to return (default 20). */
  readonly limit?: number;
  readonly abortSignal?: AbortSignal;
}

export interface RetrievalResult {
  /** Distinct node ids of the target types, best first. */
  readonly ranking: readonly Candidate[];
  readonly trace: RetrievalTrace;
}

/** A whole retrieval stack: query in, ranked nodes and a trace out. */
export interface RetrieverV1 {
  readonly specificationVersion: 'v1';
  /** The stack's name, e.g. `'bm25'`, `'default'`, `'mor-offline'`. */
  readonly name: string;
  doRetrieve(options: RetrieveOptions): Promise<RetrievalResult>;
}
