import { seededRandom } from '@weft/kit';
export interface PairedBootstrapOptions {
  /** Resamples (default 2000). */
  readonly resamples?: number;
  /** Two-sided confidence level (default 0.95). */
  readonly confidence?: number;
  /** PRNG seed: the same seed and data give the same interval (default 1). */
  readonly seed?: number;
}

export interface PairedDifference {
  /** Mean of `b[i] - a[i]` on the observed queries. */
  readonly mean: number;
  /** Percentile bootstrap interval of that mean. */
  readonly low: number;
  readonly high: number;
  readonly confidence: number;
  readonly n: number;
  /** Queries on which the two differ (`b[i] !== a[i]`). */
  readonly differing: number;
  /**
   * True when the interval excludes 0 and at least `minDifferingQueries` queries differ: the
   * difference is beyond resampling noise. A handful of queries gives a bootstrap interval of zero
   * width that excludes 0 by construction (one query: `[-100, -100]`), which says nothing.
   */
  readonly significant: boolean;
}

/**
 * Fewest queries that must differ before a difference may be called beyond noise: with 5 or fewer,
 * even all of them going the same way is not significant at 5% (two-sided sign test: 2 · 0.5⁵ > 0.05).
 */
export const minDifferingQueries = 6;

/**
 * Paired bootstrap of the difference `b - a` of per-query scores on the same queries: resample query
 * indices with replacement, take the mean difference of each resample, report the percentile interval.
 * Pairing removes the variance that comes from some queries being hard for every stack.
 */
export function pairedBootstrap(
  a: readonly number[],
  b: readonly number[],
  options: PairedBootstrapOptions = {},
): PairedDifference {
  if (a.length !== b.length)
    throw new RangeError(`paired samples differ in length: ${a.length} vs ${b.length}`);
  const resamples = options.resamples ?? 2000;
  const confidence = options.confidence ?? 0.95;
  if (!(confidence > 0 && confidence < 1))
    throw new RangeError(`confidence must be in (0, 1), got ${confidence}`);
  if (!Number.isInteger(resamples) || resamples < 1)
    throw new RangeError(`resamples must be a positive integer, got ${resamples}`);
  const n = a.length;
  const differences = a.map((value, i) => b[i]! - value);
  const mean = n === 0 ? 0 : differences.reduce((sum, d) => sum + d, 0) / n;
  const differing = differences.filter((d) => d !== 0).length;
  if (n === 0) return { mean: 0, low: 0, high: 0, confidence, n, differing, significant: false };

  const random = seededRandom(options.seed ?? 1);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += differences[Math.floor(random() * n)]!;
    means[r] = sum / n;
  }
  means.sort();
  const tail = (1 - confidence) / 2;
  const low = quantileSorted(means, tail);
  const high = quantileSorted(means, 1 - tail);
  const significant = differing >= minDifferingQueries && (low > 0 || high < 0);
  return { mean, low, high, confidence, n, differing, significant };
}

/** Linear interpolation between closest ranks (numpy's default), on a sorted array. */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const position = (sorted.length - 1) * Math.min(1, Math.max(0, q));
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  const weight = position - lower;
  return sorted[lower]! * (1 - weight) + sorted[upper]! * weight;
}
