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

/**
 * Finds candidates for a plan: by traversal, grounding, or plain search. Candidates are distinct,
 * best first, and each carries the trajectories that reached it.
 */
export interface TraverserV1 {
  readonly specificationVersion: 'v1';
  readonly name: string;
  doTraverse(options: TraverseOptions): Promise<Candidate[]>;
}
