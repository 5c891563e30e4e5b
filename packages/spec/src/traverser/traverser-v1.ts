import type { Plan } from '../planner/plan.ts';
import type { RetrievalContext } from '../retrieval-context.ts';
import type { Candidate } from './candidate.ts';

export interface TraverseOptions {
  readonly query: string;
  readonly plan: Plan;
  /** Return at most this many candidates. */
  readonly limit: number;
  readonly context: RetrievalContext;
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
   * (global text or dense searches) runs while the planner does. It must not throw and must not wait;
   * `doTraverse` for the same query and limit may then use what it started.
   */
  doPrepare?(options: PrepareOptions): void;
  doTraverse(options: TraverseOptions): Promise<Candidate[]>;
}
