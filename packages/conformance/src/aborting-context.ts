import { WeftError } from '@weft/kit';
import type { RetrievalContext } from '@weft/spec';

/** When the signal of an aborting context aborts. */
export type AbortMoment =
  /** before the stage is called */
  | 'before'
  /** during the first store or LLM call the stage makes (that call then fails) */
  | 'during';

export interface AbortingContext {
  /** The context to hand the stage; its `abortSignal` is `signal`. */
  readonly context: RetrievalContext;
  readonly signal: AbortSignal;
  /** LLM calls started after the signal aborted (the one that saw the abort happen is not counted). */
  llmCallsAfterAbort(): number;
  /** Store and LLM calls made in all. */
  calls(): number;
}

type LanguageModel = NonNullable<RetrievalContext['languageModel']>;

/**
 * Wraps `base` so that its stores behave like Weft's own under an abort: a call made once the signal
 * aborted rejects with `WeftError('WEFT_ABORTED')` (as Kùzu and LanceDB stores do), whether or not
 * the caller passed the signal on. With `'during'`, the first store or LLM call aborts the signal
 * itself: the stage sees its signal abort while it waits. A language model in `base` is wrapped the
 * same way (rejecting with the signal's reason, as the AI SDK does) and its late calls are counted.
 */
export function abortingContext(base: RetrievalContext, moment: AbortMoment): AbortingContext {
  const controller = new AbortController();
  if (moment === 'before') controller.abort();
  const signal = controller.signal;
  let calls = 0;
  let lateLlmCalls = 0;
  /** Runs before every call: aborts on the first one when asked, then says whether to refuse. */
  const enter = (): boolean => {
    calls += 1;
    if (moment === 'during' && !signal.aborted) {
      controller.abort();
      return true;
    }
    return signal.aborted;
  };
  const wrap = <T extends object>(target: T, refuse: () => Promise<never>, isLlm = false): T =>
    new Proxy(target, {
      get(object, property) {
        const value = Reflect.get(object, property);
        if (typeof value !== 'function') return value;
        const name = String(property);
        if (!name.startsWith('do')) return value.bind(object);
        return (...args: unknown[]) => {
          const wasAborted = signal.aborted;
          if (enter()) {
            if (isLlm && wasAborted) lateLlmCalls += 1;
            return refuse();
          }
          return value.apply(object, args);
        };
      },
    });
  const storeRefusal = () =>
    Promise.reject(
      new WeftError({ code: 'WEFT_ABORTED', message: 'store call aborted', cause: signal.reason }),
    );
  const llmRefusal = () => Promise.reject(signal.reason);
  const context: RetrievalContext = {
    ...base,
    graph: wrap(base.graph, storeRefusal),
    text: wrap(base.text, storeRefusal),
    ...(base.vector ? { vector: wrap(base.vector, storeRefusal) } : {}),
    ...(base.embeddingModel ? { embeddingModel: wrap(base.embeddingModel, llmRefusal) } : {}),
    ...(base.languageModel
      ? { languageModel: wrap<LanguageModel>(base.languageModel, llmRefusal, true) }
      : {}),
    abortSignal: signal,
  };
  return { context, signal, llmCallsAfterAbort: () => lateLlmCalls, calls: () => calls };
}
