import type { Parsed } from './parse-records.ts';
import { readJsonlLines } from './jsonl-reader.ts';
import type { SkbIssue } from './skb-issue.ts';

/** Thrown by a reader's `report` to stop at the first problem (`--strict`); it passes every catch here. */
export class StopReading extends Error {}

/**
 * The records of one JSONL file, each parsed, with its line number; malformed JSON, records that do
 * not parse and an unreadable file are reported with `file` and the line, and skipped.
 */
export async function* parsedLines<T>(
  path: string,
  file: string,
  parse: (value: unknown) => Parsed<T>,
  report: (issue: SkbIssue) => void,
): AsyncGenerator<{ line: number; value: T }> {
  try {
    for await (const { line, text } of readJsonlLines(path)) {
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (error) {
        report({ code: 'BAD_JSON', file, line, message: `malformed JSON: ${(error as Error).message}` });
        continue;
      }
      const parsed = parse(json);
      if (!parsed.ok) {
        for (const problem of parsed.problems)
          report({ code: problem.code, file, line, field: problem.field, message: problem.message });
        continue;
      }
      yield { line, value: parsed.value };
    }
  } catch (error) {
    if (error instanceof StopReading) throw error;
    report({ code: 'BAD_FILE', file, message: `cannot read: ${(error as Error).message}` });
  }
}

/** A list for a message: the first `max` items, then how many in all. */
export function abbreviate(items: readonly string[], max = 8): string {
  return items.length <= max
    ? items.join(', ')
    : `${items.slice(0, max).join(', ')}, … (${items.length} in all)`;
}
