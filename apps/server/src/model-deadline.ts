import { AsyncLocalStorage } from 'node:async_hooks';
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
  const limited = (signal: AbortSignal | undefined) => {
    const deadline = deadlines.getStore();
    if (!deadline) return signal;
    return signal ? AbortSignal.any([signal, deadline]) : deadline;
  };
  const settleBy = <T>(pending: PromiseLike<T>, signal: AbortSignal | undefined): Promise<T> => {
    const call = Promise.resolve(pending);
    if (!signal) return call;
    call.catch(() => {});
    return Promise.race([
      call,
      new Promise<never>((_, reject) => {
        if (signal.aborted) reject(signal.reason);
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      }),
    ]);
  };
  return {
    specificationVersion: model.specificationVersion,
    provider: model.provider,
    modelId: model.modelId,
    get supportedUrls() {
      return model.supportedUrls;
    },
    doGenerate(callOptions) {
      const abortSignal = limited(callOptions.abortSignal);
      return settleBy(
        model.doGenerate({ ...callOptions, ...(abortSignal ? { abortSignal } : {}) }),
        abortSignal,
      );
    },
    doStream(callOptions) {
      const abortSignal = limited(callOptions.abortSignal);
      return settleBy(
        model.doStream({ ...callOptions, ...(abortSignal ? { abortSignal } : {}) }),
        abortSignal,
      );
    },
  };
}
