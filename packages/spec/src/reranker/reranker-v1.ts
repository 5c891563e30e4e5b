import type { Plan } from '../planner/plan.ts';
import type { RetrievalContext } from '../retrieval-context.ts';
import type { Candidate } from '../traverser/candidate.ts';

export interface RerankOptions {
  readonly query: string;
  readonly plan: Plan;
  readonly candidates: readonly Candidate[];
  readonly limit: number;
  readonly context: RetrievalContext;
}

/**
 * Reorders candidates. Returns a subset of the input ids (never new ones), best first, with scores
 * that agree with the order. Trajectories are kept.
 */
export interface RerankerV1 {
  readonly specificationVersion: 'v1';
  readonly name: string;
  /**
   * The `Candidate.scores` keys this reranker reads (see `ScoreKey`). The pipeline warns in the trace
   * when no candidate carries one of them: the traversers before it do not produce what it needs.
   */
  readonly requiredScores?: readonly string[];
  doRerank(options: RerankOptions): Promise<Candidate[]>;
}
