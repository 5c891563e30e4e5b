import type { z } from 'zod';
import { type CallTextOptions, callText, looksLikeRefusal } from './call-text.ts';
import { extractJson } from './extract-json.ts';
import type { ModelFailure } from './model-failure.ts';

export interface CallStructuredOptions<T> extends CallTextOptions {
  /** The shape the answer must have (zod 4); unknown keys are dropped, as zod does. */
  readonly schema: z.ZodType<T>;
  /**
   * Reshapes the parsed JSON before the schema check, for mistakes models make (`{"plan": {…}}`
   * around the object, a string where a list belongs). Returns the value and what it changed.
   */
  readonly repair?: (value: unknown) => { readonly value: unknown; readonly repairs: readonly string[] };
  /** Where failures are reported (`context.warn`), as `<purpose>: <what happened>; <fallback>`. */
  readonly warn?: (message: string) => void;
  /** What the stage does instead, for the trace, e.g. `the offline plan is used`. */
  readonly fallback?: string;
}

export type StructuredResult<T> =
  | {
      readonly ok: true;
      readonly value: T;
      /** The model's answer as it came. */
      readonly text: string;
      /** What was repaired to get `value` (fence removed, wrapper unwrapped, …). */
      readonly repairs: readonly string[];
    }
  | { readonly ok: false; readonly failure: ModelFailure; readonly text?: string };

function describeIssues(error: z.ZodError): string {
  const issues = error.issues.slice(0, 3).map((issue) => {
    const where = issue.path.length > 0 ? issue.path.map(String).join('.') : 'the answer';
    return `${where}: ${issue.message}`;
  });
  return issues.join('; ') + (error.issues.length > 3 ? `; … ${error.issues.length - 3} more` : '');
}

/**
 * Asks the model for JSON of a given shape and validates it, repairing what is safe to repair
 * (fences, prose around the object, trailing commas, and whatever `repair` knows). It never throws
 * on bad output: every failure (see `ModelFailureReason`) comes back as `{ ok: false }` and is
 * reported through `warn` with the fallback the stage takes, so the trace says why.
 *
 * JSON is asked for in the prompt, not through a provider's JSON mode, which not every
 * OpenAI-compatible server accepts.
 */
export async function callStructured<T>(options: CallStructuredOptions<T>): Promise<StructuredResult<T>> {
  const fail = (failure: ModelFailure, text?: string): StructuredResult<T> => {
    options.warn?.(
      `${options.purpose}: ${failure.message}${options.fallback ? `; ${options.fallback}` : ''}`,
    );
    return { ok: false, failure, ...(text === undefined ? {} : { text }) };
  };
  const answer = await callText(options);
  if (!answer.ok) return fail(answer.failure, answer.text);
  const extracted = extractJson(answer.text);
  if (!extracted.ok) {
    return looksLikeRefusal(answer.text)
      ? fail(
          { reason: 'refusal', message: `the model refused: “${answer.text.trim().slice(0, 120)}”` },
          answer.text,
        )
      : fail({ reason: 'invalid-json', message: extracted.message }, answer.text);
  }
  const repaired = options.repair ? options.repair(extracted.value) : { value: extracted.value, repairs: [] };
  const parsed = options.schema.safeParse(repaired.value);
  if (!parsed.success)
    return fail(
      {
        reason: 'invalid-output',
        message: `the answer does not fit the expected shape (${describeIssues(parsed.error)})`,
      },
      answer.text,
    );
  return {
    ok: true,
    value: parsed.data,
    text: answer.text,
    repairs: [...extracted.repairs, ...repaired.repairs],
  };
}
