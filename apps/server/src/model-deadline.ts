import { AsyncLocalStorage } from 'node:async_hooks';
import { limitModelCalls } from '@weft/llm';
import type { StackCreateOptions } from '@weft/stacks';

type LanguageModel = NonNullable<StackCreateOptions['languageModel']>;

const deadlines = new AsyncLocalStorage<AbortSignal>();

/**
 * Runs one request's work with a deadline for every model call made inside it (however many calls a
 * stack makes): after `ms` every call still waiting is stopped as timed out, and later ones stop at
 * once, so each stage falls back while the request still has time.
 */
export function runWithModelDeadline<T>(ms: number, work: () => Promise<T>): Promise<T> {
  const signal = AbortSignal.timeout(ms);
  return deadlines.run(signal, work);
}

/**
 * The model under the deadline of the request that calls it (`runWithModelDeadline`); outside a
 * request it is the model as given. The deadline's reason is a `TimeoutError`, which the stages read
 * as a timed-out call (and fall back), not as an aborted retrieval.
 */
export function withRequestModelDeadline(model: LanguageModel): LanguageModel {
  return limitModelCalls(model, (signal) => {
    const deadline = deadlines.getStore();
    if (!deadline) return signal;
    return signal ? AbortSignal.any([signal, deadline]) : deadline;
  });
}
