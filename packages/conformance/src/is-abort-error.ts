import { WeftError } from '@weft/kit';

/**
 * Whether `error` reports an abort: a `WeftError` with code `WEFT_ABORTED`, the signal's own
 * reason (what `signal.throwIfAborted()` and the AI SDK throw), an error named `AbortError`, or an
 * error caused (through `cause`) by one of those. The pipeline turns each of them into
 * `WEFT_ABORTED`; any other error under an aborted signal hides a real failure.
 */
export function isAbortError(error: unknown, signal?: AbortSignal): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 10 && current !== undefined && current !== null; depth++) {
    if (WeftError.is(current, 'WEFT_ABORTED')) return true;
    if (signal?.aborted && current === signal.reason) return true;
    if (current instanceof Error && current.name === 'AbortError') return true;
    // DOMException is an Error in Node, but check the name for other realms too.
    if (typeof current === 'object' && (current as { name?: unknown }).name === 'AbortError') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** A short description of an error for assertion messages. */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return `${error.name}${typeof code === 'string' ? ` ${code}` : ''}: ${error.message}`;
  }
  return String(error);
}
