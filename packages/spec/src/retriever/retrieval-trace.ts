import type { CriticFeedback } from '../critic/critic-v1.ts';
import type { Plan } from '../planner/plan.ts';

export type StageKind = 'expander' | 'planner' | 'traverser' | 'fusion' | 'reranker' | 'critic';

/** One stage run, as the pipeline recorded it. */
export interface StageTrace {
  readonly kind: StageKind;
  /** The implementation's `name`. */
  readonly name: string;
  /** Critic round, from 0. */
  readonly round: number;
  readonly startedAtMs: number;
  readonly durationMs: number;
  readonly llmCalls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** A small, JSON-safe summary of what went in and came out (counts, top ids). */
  readonly input?: unknown;
  readonly output?: unknown;
  readonly error?: { readonly code: string; readonly message: string };
  /** What the stage reported through `RetrievalContext.warn`, in order. */
  readonly warnings?: readonly string[];
}

export interface RetrievalTrace {
  readonly stack: string;
  readonly query: string;
  readonly stages: readonly StageTrace[];
  /** The plan of the final round. */
  readonly plan?: Plan;
  readonly rounds: number;
  readonly feedback: readonly CriticFeedback[];
  readonly llmCalls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly durationMs: number;
}
