import { synthesizeQueries } from '@weft/eval';
import type { RetrievalContext } from '@weft/spec';

/** The p-th percentile of ascending `sorted` (nearest rank, 0 when empty). */
export const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/**
 * The stack benchmarks' questions: `n` synthesised from the store itself, two thirds relational and
 * one third text-only, seeded so that runs and commits compare.
 */
export async function benchQueries(context: RetrievalContext, n: number) {
  return synthesizeQueries(context, { hybrid: Math.ceil((2 * n) / 3), text: Math.floor(n / 3), seed: 2 });
}
