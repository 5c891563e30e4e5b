import type { CriticFeedback } from '../critic/critic-v1.ts';
import type { Plan } from '../planner/plan.ts';

export type StageKind = 'expander' | 'planner' | 'traverser' | 'fusion' | 'reranker' | 'critic';

/**
 * What became of one model call: answered (`ok`), answered with a refusal or a content filter
 * (`refused`), failed at the provider or on the way (`error`), ran out of time (`timeout`), was
 * aborted (`aborted`), or was never made because the stack's LLM budget was spent (`budget-exceeded`).
 */
export type ModelCallOutcome = 'ok' | 'refused' | 'error' | 'timeout' | 'aborted' | 'budget-exceeded';

/** One language- or embedding-model call of a stage, as the pipeline's metering recorded it. */
export interface ModelCallTrace {
  readonly kind: 'language' | 'embedding';
  /** What the stage asked the model for (e.g. `plan paths`), when the stage said so. */
  readonly purpose?: string;
  /** `provider:modelId`. */
  readonly model: string;
  readonly outcome: ModelCallOutcome;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly durationMs: number;
  /** Why the call failed, or the finish reason when the model stopped for another reason than `stop`. */
  readonly message?: string;
}

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
  /**
   * Every model call the stage made (language and embedding), in order, with its purpose and
   * outcome; absent when it made none. `llmCalls` counts the language-model calls that were made.
   */
  readonly modelCalls?: readonly ModelCallTrace[];
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
  /** Embedding-model calls (query embeddings); counted, never charged to the LLM budget. */
  readonly embeddingCalls?: number;
  readonly durationMs: number;
}
