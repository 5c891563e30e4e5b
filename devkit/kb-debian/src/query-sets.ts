import { fileURLToPath } from 'node:url';
import { querySetReaders } from '@weft-dev/judged-queries';

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

/**
 * Reads and checks one committed query set, and reads a set's annotations (shape trusted: they are
 * written with the queries and tested); from this package's `queries/` unless given another folder.
 */
export const { readQuerySet, readAnnotations } = querySetReaders<AnnotatedSetName>(queriesDirectory);
