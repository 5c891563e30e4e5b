import type { SkbQuery } from '@weft/spec';

/** A labelled query set for training tests, split into train and val. */
export interface ToyTrainingSet {
  readonly name: string;
  readonly train: SkbQuery[];
  readonly val: SkbQuery[];
}

/**
 * Labelled queries over the toy SKB from `[question, answers]` pairs, ids `q0`, `q1`, …; every
 * `valEvery`-th pair (the last of each run of `valEvery`) goes to val, the others to train.
 */
export function toyTrainingSet(
  pairs: readonly (readonly [string, readonly string[]])[],
  valEvery: number,
): ToyTrainingSet {
  const queries: SkbQuery[] = pairs.map(([query, answers], i) => ({
    id: `q${i}`,
    query,
    answers: [...answers],
    split: i % valEvery === valEvery - 1 ? 'val' : 'train',
  }));
  return {
    name: 'toy',
    train: queries.filter((q) => q.split === 'train'),
    val: queries.filter((q) => q.split === 'val'),
  };
}
