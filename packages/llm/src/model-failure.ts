import { WeftError } from '@weft/kit';

/**
 * Why a model call gave a stage nothing it could use. Stages fall back on any of them and say which
 * in the trace; none of them is an exception to the caller.
 */
export type ModelFailureReason =
  /** the stack has no language model */
  | 'no-model'
  /** the stack's or the stage's LLM-call budget is spent */
  | 'budget'
  /** no answer within the stage's time limit */
  | 'timeout'
  /** the retrieval was aborted */
  | 'aborted'
  /** nothing answers at the model's address (connection refused, unknown host, reset) */
  | 'unreachable'
  /** the provider answered with an error (HTTP status, bad key, rate limit, cassette miss) */
  | 'provider-error'
  /** the model declined (content filter, "I can't help with that") */
  | 'refusal'
  /** the model answered nothing */
  | 'empty'
  /** the answer holds no parseable JSON (or Cypher) */
  | 'invalid-json'
  /** the answer parses but does not fit the expected shape, even after repair */
  | 'invalid-output';

export interface ModelFailure {
  readonly reason: ModelFailureReason;
  /** One line for the trace. */
  readonly message: string;
}

const unreachableCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
]);

interface ErrorLike {
  readonly name?: unknown;
  readonly message?: unknown;
  readonly code?: unknown;
  readonly statusCode?: unknown;
  readonly url?: unknown;
  readonly cause?: unknown;
  readonly lastError?: unknown;
  readonly errors?: unknown;
}

/** The error and what it wraps (causes, a retry error's last error, aggregated errors), outermost first. */
function chain(error: unknown): ErrorLike[] {
  const out: ErrorLike[] = [];
  const queue: unknown[] = [error];
  while (queue.length > 0 && out.length < 12) {
    const next = queue.shift();
    if (!next || typeof next !== 'object' || out.includes(next as ErrorLike)) continue;
    const item = next as ErrorLike;
    out.push(item);
    queue.push(item.cause, item.lastError, ...(Array.isArray(item.errors) ? item.errors : []));
  }
  return out;
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** Sorts a failed model call into a `ModelFailure`, with a message that says what happened. */
export function modelFailureOf(error: unknown, options: { readonly timeoutMs?: number } = {}): ModelFailure {
  if (WeftError.is(error, 'WEFT_LLM_BUDGET_EXCEEDED')) return { reason: 'budget', message: error.message };
  const links = chain(error);
  const first = links[0];
  const message = text(first?.message) ?? String(error);
  if (links.some((e) => e.name === 'TimeoutError'))
    return {
      reason: 'timeout',
      message:
        options.timeoutMs === undefined
          ? 'the model did not answer in time'
          : `the model did not answer within ${options.timeoutMs} ms`,
    };
  if (links.some((e) => e.name === 'AbortError') || WeftError.is(error, 'WEFT_ABORTED'))
    return { reason: 'aborted', message: 'the retrieval was aborted' };
  const code = links.map((e) => text(e.code)).find((c) => c !== undefined && unreachableCodes.has(c));
  const url = links.map((e) => text(e.url)).find((u) => u !== undefined);
  if (code || links.some((e) => /fetch failed|cannot connect to api/i.test(text(e.message) ?? ''))) {
    return {
      reason: 'unreachable',
      message: `the model is unreachable${url ? ` at ${url}` : ''} (${code ?? message})`,
    };
  }
  const status = links.map((e) => e.statusCode).find((s) => typeof s === 'number');
  return {
    reason: 'provider-error',
    message: `the provider failed${status === undefined ? '' : ` with HTTP ${status}`}: ${message.replace(/\s+/g, ' ').slice(0, 300)}`,
  };
}
