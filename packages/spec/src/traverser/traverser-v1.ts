import type { Plan } from '../planner/plan.ts';
import type { RetrievalContext } from '../retrieval-context.ts';
import type { Candidate } from './candidate.ts';

export interface TraverseOptions {
  readonly query: string;
  readonly plan: Plan;
  /** Return at most this many candidates. */
  readonly limit: number;
  readonly context: RetrievalContext;
  /**
   * What this traverser's `doPrepare` returned for the same query and limit, passed back by the
   * pipeline; absent when it has no `doPrepare` or preparation failed. The handle lives with one
   * retrieval, so one traverser instance serves any number of stores and queries at once.
   */
  readonly prepared?: unknown;
}

/** What a traverser knows before the plan exists. */
export interface PrepareOptions {
  readonly query: string;
  readonly limit: number;
  readonly context: RetrievalContext;
}

/**
 * Finds candidates for a plan: by traversal, grounding, or plain search. Candidates are distinct,
 * best first, and each carries the trajectories that reached it.
 */
export interface TraverserV1 {
  readonly specificationVersion: 'v1';
  readonly name: string;
  /**
   * Optional: called with the query before planning starts, so work that needs only the query
   * (global text or dense searches) runs while the planner does. It must not wait: it starts the work
   * and returns a handle (typically an object of promises) that the pipeline hands back to
   * `doTraverse` as `prepared`. Nothing of it may be kept on the instance. A throw only costs the
   * head start.
   */
  doPrepare?(options: PrepareOptions): unknown;
  doTraverse(options: TraverseOptions): Promise<Candidate[]>;
}
