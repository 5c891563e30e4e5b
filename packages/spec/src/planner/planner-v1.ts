import type { CriticFeedback } from '../critic/critic-v1.ts';
import type { RetrievalContext } from '../retrieval-context.ts';
import type { Plan } from './plan.ts';

export interface PlanOptions {
  readonly query: string;
  /** Feedback of earlier rounds, oldest first; empty on the first round. */
  readonly feedback: readonly CriticFeedback[];
  /** The plan of the previous round, when there was one. */
  readonly previous?: Plan;
  readonly context: RetrievalContext;
}

/** Turns a query into a `Plan`: offline (schema + stores) or with an LLM (e.g. writing Cypher). */
export interface PlannerV1 {
  readonly specificationVersion: 'v1';
  readonly name: string;
  doPlan(options: PlanOptions): Promise<Plan>;
}
