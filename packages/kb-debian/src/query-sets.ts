import { fileURLToPath } from 'node:url';
import { parseQuery, readJsonlLines } from '@weft/skb';
import type { SkbQuery } from '@weft/spec';
import type { RelationalPart } from './relational-part.ts';

/** The folder of the committed, hand-written query files (`queries/` of this package). */
export const queriesDirectory = fileURLToPath(new URL('../queries/', import.meta.url));

/** The query sets the bundle carries: `queries/<set>.jsonl` of this package. */
export const querySetNames = ['described', 'text', 'hybrid'] as const;

/**
 * The sets judged through relational parts, with `queries/<set>.annotations.jsonl` beside them.
 * `described` only ever describes its anchors; `hybrid` names them.
 */
export const annotatedSetNames = ['described', 'hybrid'] as const;
export type AnnotatedSetName = (typeof annotatedSetNames)[number];

export interface CandidateJudgment {
  readonly id: string;
  readonly gold: boolean;
  readonly reason: string;
}

/** A line of `queries/<set>.annotations.jsonl`: how one hybrid (or described) query was judged. */
export interface HybridAnnotation {
  readonly id: string;
  readonly relational_part: RelationalPart;
  readonly candidates: readonly CandidateJudgment[];
}

async function readJsonl(path: string): Promise<{ line: number; value: unknown }[]> {
  const records: { line: number; value: unknown }[] = [];
  for await (const { line, text } of readJsonlLines(path)) {
    try {
      records.push({ line, value: JSON.parse(text) });
    } catch (error) {
      throw new Error(`${path}:${line}: malformed JSON: ${(error as Error).message}`);
    }
  }
  return records;
}

/** Reads and checks one committed query set. */
export async function readQuerySet(set: string, directory = queriesDirectory): Promise<SkbQuery[]> {
  const path = `${directory}/${set}.jsonl`;
  return (await readJsonl(path)).map(({ line, value }) => {
    const parsed = parseQuery(value);
    if (!parsed.ok) throw new Error(`${path}:${line}: ${parsed.problems.map((p) => p.message).join('; ')}`);
    return parsed.value;
  });
}

/** Reads `<set>.annotations.jsonl` (shape trusted: it is written with the queries and tested). */
export async function readAnnotations(
  set: AnnotatedSetName,
  directory = queriesDirectory,
): Promise<HybridAnnotation[]> {
  return (await readJsonl(`${directory}/${set}.annotations.jsonl`)).map(
    ({ value }) => value as HybridAnnotation,
  );
}
