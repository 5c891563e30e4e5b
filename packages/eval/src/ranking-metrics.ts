/** Per-query figures, each in [0, 1] (shared/SKB-FORMAT.md, "Metrics"). */
export interface QueryMetrics {
  readonly hit1: number;
  readonly hit5: number;
  readonly recall20: number;
  readonly mrr: number;
}

export const metricNames = [
  'hit1',
  'hit5',
  'recall20',
  'mrr',
] as const satisfies readonly (keyof QueryMetrics)[];

/** The ranking without repeats: an id counts once, at its first (best) position. */
export function distinctRanking(ranking: readonly string[]): string[] {
  return [...new Set(ranking)];
}

/**
 * STaRK's metrics for one query. `ranking` must already hold only nodes of the schema's target types
 * (see `targetRanking`); repeated ids count once, at their best position. Ties in score are whatever
 * order the retriever returned: the metrics read positions, never scores.
 *
 * - Hit@k: 1 when one of the first k is gold.
 * - Recall@20: |first 20 ∩ gold| / |gold| (|gold|, not min(20, |gold|)).
 * - MRR: 1 / rank of the first gold id over the whole list, 0 when none is there.
 */
export function rankingMetrics(ranking: readonly string[], gold: readonly string[]): QueryMetrics {
  const answers = new Set(gold);
  if (answers.size === 0) throw new RangeError('a query needs at least one gold answer');
  const list = distinctRanking(ranking);
  const firstGold = list.findIndex((id) => answers.has(id));
  const found20 = list.slice(0, 20).filter((id) => answers.has(id)).length;
  return {
    hit1: firstGold === 0 ? 1 : 0,
    hit5: firstGold >= 0 && firstGold < 5 ? 1 : 0,
    recall20: found20 / answers.size,
    mrr: firstGold >= 0 ? 1 / (firstGold + 1) : 0,
  };
}

/** Mean of each metric over queries, in percent (the unit every report uses). 0 queries → all 0. */
export function meanMetricsPercent(metrics: readonly QueryMetrics[]): QueryMetrics {
  const mean = (name: keyof QueryMetrics) =>
    metrics.length === 0 ? 0 : (100 * metrics.reduce((sum, m) => sum + m[name], 0)) / metrics.length;
  return { hit1: mean('hit1'), hit5: mean('hit5'), recall20: mean('recall20'), mrr: mean('mrr') };
}

/**
 * Keeps the ids whose type is a target type, in order and without repeats. `typeOf` gives each id's
 * type (undefined when unknown: such ids are dropped, since they cannot be shown to be answers of
 * the right type). With `targetTypes` undefined every type counts.
 */
export function targetRanking(
  ranking: readonly string[],
  targetTypes: ReadonlySet<string> | undefined,
  typeOf: (id: string) => string | undefined,
): string[] {
  const list = distinctRanking(ranking);
  if (!targetTypes) return list;
  return list.filter((id) => {
    const type = typeOf(id);
    return type !== undefined && targetTypes.has(type);
  });
}
