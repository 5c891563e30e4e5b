import type { LanguageModelV4Usage } from '@ai-sdk/provider';
import type { ModelCallTrace } from '@weft/spec';
import { WeftError } from '@weft/kit';

/** What a meter has counted so far. */
export interface LlmUsage {
  /** Language-model calls made (a call refused by the budget is not one). */
  readonly calls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Embedding-model calls: counted, never charged to the budget (offline stacks embed queries too). */
  readonly embeddingCalls: number;
  readonly embeddingTokens: number;
  /** Time spent waiting on model calls, in milliseconds (calls of concurrent stages add up). */
  readonly durationMs: number;
}

/**
 * Counts model calls, tokens and latency of one retrieval (or one stage of it) and enforces the
 * stack's LLM-call budget. The metering middleware (`meteringMiddleware`) feeds it; the pipeline keeps
 * one per query and one per stage run and copies them into the trace.
 */
export class LlmMeter {
  readonly budget: number;
  calls = 0;
  inputTokens = 0;
  outputTokens = 0;
  embeddingCalls = 0;
  embeddingTokens = 0;
  durationMs = 0;
  /** Every call in order, with its purpose and outcome (what `StageTrace.modelCalls` shows). */
  readonly log: ModelCallTrace[] = [];

  constructor(budget: number = Number.POSITIVE_INFINITY) {
    this.budget = budget;
  }

  /** Called before each language-model call; throws `WEFT_LLM_BUDGET_EXCEEDED` once the budget is spent. */
  charge(): void {
    if (this.calls >= this.budget) {
      throw new WeftError({
        code: 'WEFT_LLM_BUDGET_EXCEEDED',
        message: `LLM-call budget of ${this.budget} per query exhausted`,
        details: { budget: this.budget },
      });
    }
    this.calls += 1;
  }

  record(usage: LanguageModelV4Usage | undefined): void {
    this.inputTokens += usage?.inputTokens.total ?? 0;
    this.outputTokens += usage?.outputTokens.total ?? 0;
  }

  /** Adds a finished (or refused) call to the log and its latency to the total. */
  logCall(call: ModelCallTrace): void {
    this.log.push(call);
    this.durationMs += call.durationMs;
    if (call.kind === 'embedding') {
      this.embeddingCalls += 1;
      this.embeddingTokens += call.inputTokens;
    }
  }

  snapshot(): LlmUsage {
    return {
      calls: this.calls,
      inputTokens: this.inputTokens,
      outputTokens: this.outputTokens,
      embeddingCalls: this.embeddingCalls,
      embeddingTokens: this.embeddingTokens,
      durationMs: this.durationMs,
    };
  }
}
