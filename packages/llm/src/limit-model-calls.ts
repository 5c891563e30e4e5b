import type { RetrievalContext } from '@weft/spec';

type LanguageModel = NonNullable<RetrievalContext['languageModel']>;

/**
 * The model with every call's abort signal replaced by `signalFor(the caller's signal)` — a timer, a
 * request's deadline, or both — and a call whose provider ignores that signal not waited for: it
 * rejects with the signal's reason as soon as the signal fires. A stream gets the signal as a whole.
 */
export function limitModelCalls(
  model: LanguageModel,
  signalFor: (signal: AbortSignal | undefined) => AbortSignal | undefined,
): LanguageModel {
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
      const abortSignal = signalFor(callOptions.abortSignal);
      return settleBy(
        model.doGenerate({ ...callOptions, ...(abortSignal ? { abortSignal } : {}) }),
        abortSignal,
      );
    },
    doStream(callOptions) {
      const abortSignal = signalFor(callOptions.abortSignal);
      return settleBy(
        model.doStream({ ...callOptions, ...(abortSignal ? { abortSignal } : {}) }),
        abortSignal,
      );
    },
  };
}
