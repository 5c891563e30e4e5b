import type { RetrievalContext } from '@weft/spec';
import { expect } from 'vitest';
import { type AbortMoment, abortingContext } from './aborting-context.ts';
import { describeError, isAbortError } from './is-abort-error.ts';

/**
 * The abort contract of every stage (planner, traverser, reranker, critic, expander) and index:
 * once `context.abortSignal` has aborted, the call settles — it never hangs — and makes no further
 * LLM call. It either rejects with an abort (`isAbortError`: `WEFT_ABORTED`, the signal's reason,
 * an `AbortError`, or an error caused by one) or resolves with a well-formed result: local work may
 * finish, because the pipeline checks the signal before every stage and reports `WEFT_ABORTED`
 * itself. Rejecting with any other error is a failure: it hides a real bug behind the abort.
 *
 * `run` gets a context whose stores refuse calls once the signal aborted; `check` validates a
 * result when the stage resolved anyway. A stage that hangs fails by the test's timeout.
 */
export async function checkStageAbort<T>(options: {
  readonly base: RetrievalContext;
  readonly moment: AbortMoment;
  readonly run: (context: RetrievalContext) => Promise<T>;
  readonly check: (value: T) => void | Promise<void>;
}): Promise<'rejected' | 'resolved'> {
  const aborting = abortingContext(options.base, options.moment);
  let outcome:
    | { readonly resolved: true; readonly value: T }
    | { readonly resolved: false; readonly error: unknown };
  try {
    // A synchronous throw counts as a rejection: the pipeline awaits the call either way.
    outcome = { resolved: true, value: await Promise.resolve().then(() => options.run(aborting.context)) };
  } catch (error) {
    outcome = { resolved: false, error };
  }
  expect(aborting.llmCallsAfterAbort(), 'LLM calls started after the signal aborted').toBe(0);
  if (!outcome.resolved) {
    expect(
      isAbortError(outcome.error, aborting.signal),
      `rejected under an aborted signal with something other than an abort: ${describeError(outcome.error)}`,
    ).toBe(true);
    return 'rejected';
  }
  await options.check(outcome.value);
  return 'resolved';
}
