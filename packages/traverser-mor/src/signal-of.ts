import type { RetrievalContext } from '@weft/spec';

/** The context's abort signal as search options: spread into every store call of a traversal. */
export function signalOf(context: RetrievalContext): { abortSignal?: AbortSignal } {
  return context.abortSignal ? { abortSignal: context.abortSignal } : {};
}
