import { parseQuery, readJsonlLines } from '@weft/skb';
import type { SkbQuery } from '@weft/spec';
import type { RelationalPart } from './relational-part.ts';

/** One judged candidate of a hybrid (or described) query. */
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

/** Reads and checks one committed query set: `<directory>/<set>.jsonl`. */
export async function readQuerySet(directory: string, set: string): Promise<SkbQuery[]> {
  const path = `${directory}/${set}.jsonl`;
  return (await readJsonl(path)).map(({ line, value }) => {
    const parsed = parseQuery(value);
    if (!parsed.ok) throw new Error(`${path}:${line}: ${parsed.problems.map((p) => p.message).join('; ')}`);
    return parsed.value;
  });
}

/**
 * Reads `<directory>/<set>.annotations.jsonl` (shape trusted: it is written with the queries and
 * tested by the package that holds them).
 */
export async function readAnnotations(directory: string, set: string): Promise<HybridAnnotation[]> {
  return (await readJsonl(`${directory}/${set}.annotations.jsonl`)).map(
    ({ value }) => value as HybridAnnotation,
  );
}

/** The readers of one KB's query sets, bound to its `queries/` directory (another may be passed). */
export interface QuerySetReaders<AnnotatedSet extends string> {
  /** Reads and checks `<directory>/<set>.jsonl`. */
  readQuerySet(set: string, directory?: string): Promise<SkbQuery[]>;
  /** Reads `<directory>/<set>.annotations.jsonl`. */
  readAnnotations(set: AnnotatedSet, directory?: string): Promise<HybridAnnotation[]>;
}

/** {@link readQuerySet} and {@link readAnnotations} with `queriesDirectory` as the default folder. */
export function querySetReaders<AnnotatedSet extends string>(
  queriesDirectory: string,
): QuerySetReaders<AnnotatedSet> {
  return {
    readQuerySet: (set, directory = queriesDirectory) => readQuerySet(directory, set),
    readAnnotations: (set, directory = queriesDirectory) => readAnnotations(directory, set),
  };
}
