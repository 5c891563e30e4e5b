import type { LanguageModelV4 } from '@ai-sdk/provider';
import { purposeOptions } from '@weft/core';
import { generateText } from 'ai';
import { type ModelFailure, modelFailureOf } from './model-failure.ts';

export interface CallTextOptions {
  /** The stage's model (`context.languageModel`); absent = fail with `no-model`. */
  readonly model: LanguageModelV4 | undefined;
  /** What the call is for, e.g. `plan paths`: shown in the trace and the cassette. */
  readonly purpose: string;
  readonly instructions?: string;
  readonly prompt: string;
  /** Give up after this long, whether or not the provider honours the abort (default 30 000 ms). */
  readonly timeoutMs?: number;
  readonly maxOutputTokens?: number;
  /** Default 0: stages want the same answer for the same question. */
  readonly temperature?: number;
  /**
   * Retries of failed calls (default 0): each retry is a call against the budget, and a stage that
   * falls back loses little by not retrying.
   */
  readonly maxRetries?: number;
  readonly abortSignal?: AbortSignal;
}

export type TextCallResult =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly failure: ModelFailure; readonly text?: string };

/** The default time limit of one stage call. */
export const defaultCallTimeoutMs = 30_000;

/**
 * One text generation for a stage, which never throws: no model, a spent budget, an abort, a
 * timeout (enforced here even when the provider ignores the abort signal), an unreachable provider,
 * a provider error, a content-filter refusal and an empty answer all come back as a `ModelFailure`.
 * No call is made once `abortSignal` has aborted.
 */
export async function callText(options: CallTextOptions): Promise<TextCallResult> {
  const timeoutMs = options.timeoutMs ?? defaultCallTimeoutMs;
  if (!options.model)
    return { ok: false, failure: { reason: 'no-model', message: 'no language model is configured' } };
  if (options.abortSignal?.aborted)
    return { ok: false, failure: { reason: 'aborted', message: 'the retrieval was aborted' } };
  const timer = new AbortController();
  const handle = setTimeout(
    () => timer.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError')),
    timeoutMs,
  );
  const signal = options.abortSignal ? AbortSignal.any([options.abortSignal, timer.signal]) : timer.signal;
  const stopped = new Promise<never>((_, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
  try {
    const call = generateText({
      model: options.model,
      ...(options.instructions ? { instructions: options.instructions } : {}),
      prompt: options.prompt,
      temperature: options.temperature ?? 0,
      maxRetries: options.maxRetries ?? 0,
      ...(options.maxOutputTokens ? { maxOutputTokens: options.maxOutputTokens } : {}),
      abortSignal: signal,
      providerOptions: purposeOptions(options.purpose),
    });
    // A provider that ignores the signal settles later; nobody waits for it then.
    call.catch(() => {});
    stopped.catch(() => {});
    const result = await Promise.race([call, stopped]);
    if (result.finishReason === 'content-filter')
      return {
        ok: false,
        failure: { reason: 'refusal', message: 'the model refused (content filter)' },
        text: result.text,
      };
    if (!result.text.trim())
      return { ok: false, failure: { reason: 'empty', message: 'the model answered nothing' } };
    return { ok: true, text: result.text };
  } catch (error) {
    if (options.abortSignal?.aborted)
      return { ok: false, failure: { reason: 'aborted', message: 'the retrieval was aborted' } };
    return { ok: false, failure: modelFailureOf(error, { timeoutMs }) };
  } finally {
    clearTimeout(handle);
  }
}

/** Answers that decline rather than answer: "I'm sorry, I can't …", "As an AI …". */
export function looksLikeRefusal(text: string): boolean {
  return /^\s*(?:i['’]m sorry|i am sorry|sorry,|i cannot|i can['’]?t|i can not|i won['’]t|i['’]m unable|i am unable|i['’]m not able|as an ai)\b/i.test(
    text,
  );
}
