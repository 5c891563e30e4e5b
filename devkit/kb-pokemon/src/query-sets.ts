import { fileURLToPath } from 'node:url';
import { type HybridAnnotation, querySetReaders } from '@weft-dev/judged-queries';

/** The folder of the committed, hand-written query files (`queries/` of this package). */
export const queriesDirectory = fileURLToPath(new URL('../queries/', import.meta.url));

/** The query sets the bundle carries: `queries/<set>.jsonl` of this package. */
export const querySetNames = ['hybrid', 'text', 'described'] as const;

/**
 * The hybrid sets, judged through their relational parts: each has `queries/<set>.annotations.jsonl`
 * beside it. `hybrid` names (or paraphrases) its anchors; `described` only ever describes them.
 */
export const annotatedSetNames = ['hybrid', 'described'] as const;
export type AnnotatedSetName = (typeof annotatedSetNames)[number];

/**
 * Reads and checks one committed query set, and reads a set's annotations (shape trusted: they are
 * written with the queries and tested); from this package's `queries/` unless given another folder.
 */
export const { readQuerySet, readAnnotations } = querySetReaders<AnnotatedSetName>(queriesDirectory);

/** Reads `hybrid.annotations.jsonl`. */
export function readHybridAnnotations(directory = queriesDirectory): Promise<HybridAnnotation[]> {
  return readAnnotations('hybrid', directory);
}
