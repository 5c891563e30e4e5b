import type { SkbQuery, TrainingSetV1 } from '@weft/spec';
import { spread } from './spread.ts';

/** A training query with the weight that balances its set against the others. */
export interface BalancedQuery {
  readonly query: SkbQuery;
  /** The largest set's size over this query's set's size. */
  readonly weight: number;
  readonly set: TrainingSetV1;
}

/**
 * At most `perSet` queries of each set's `split` (spread over the set), each weighted so that every
 * set weighs as much as the largest: a small hand-written set is not drowned by a large synthesised
 * one. Set by set, in the order given.
 */
export function balancedQueries(
  sets: readonly TrainingSetV1[],
  split: 'train' | 'val',
  perSet: number,
): BalancedQuery[] {
  const chosen = sets.map((set) => ({ set, queries: spread(set[split], perSet) }));
  const largest = Math.max(1, ...chosen.map((c) => c.queries.length));
  return chosen.flatMap(({ set, queries }) =>
    queries.map((query) => ({ query, weight: largest / queries.length, set })),
  );
}
