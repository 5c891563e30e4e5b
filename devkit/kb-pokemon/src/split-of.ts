import type { SkbSplit } from '@weft/spec';

// Dealt in this cycle by the query's number: 5 train, 3 test, 2 val in every 10 consecutive queries,
// so every kind of query (they are written grouped by template) lands in every split.
const cycle: readonly SkbSplit[] = [
  'train',
  'test',
  'train',
  'val',
  'train',
  'test',
  'train',
  'test',
  'train',
  'val',
];

/**
 * The split of a hand-written query, fixed by the number its id ends with (`pk-hyb-017` -> 17),
 * never by its difficulty or answers.
 */
export function splitOf(id: string): SkbSplit {
  const number = /(\d+)$/.exec(id)?.[1];
  if (number === undefined) throw new Error(`query id "${id}" does not end with a number`);
  return cycle[(Number(number) - 1) % cycle.length]!;
}
