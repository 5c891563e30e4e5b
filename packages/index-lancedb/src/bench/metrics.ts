/** Per-query metrics as shared/SKB-FORMAT.md defines them; `ranked` holds distinct target-type ids. */
export function queryMetrics(ranked: readonly string[], gold: readonly string[]) {
  const g = new Set(gold);
  const first = ranked.findIndex((id) => g.has(id));
  const recall20 = ranked.slice(0, 20).filter((id) => g.has(id)).length / g.size;
  return {
    hit1: first === 0 ? 1 : 0,
    hit5: first >= 0 && first < 5 ? 1 : 0,
    recall20,
    mrr: first >= 0 ? 1 / (first + 1) : 0,
  };
}

export type Metrics = ReturnType<typeof queryMetrics>;

/** Means over queries, in percent. */
export function meanMetrics(all: readonly Metrics[]): Metrics {
  const mean = (f: (m: Metrics) => number) =>
    (100 * all.reduce((s, m) => s + f(m), 0)) / Math.max(1, all.length);
  return {
    hit1: mean((m) => m.hit1),
    hit5: mean((m) => m.hit5),
    recall20: mean((m) => m.recall20),
    mrr: mean((m) => m.mrr),
  };
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}
