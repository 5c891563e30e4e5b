import { WeftError } from '@weft/kit';
import type { StackEvaluation } from './evaluate-stacks.ts';
import { type PairedBootstrapOptions, type PairedDifference, pairedBootstrap } from './paired-bootstrap.ts';

/** `stack` minus `baseline` on the same queries, in percentage points, with bootstrap intervals. */
export interface StackComparison {
  readonly baseline: string;
  readonly stack: string;
  readonly n: number;
  readonly hit1: PairedDifference;
  readonly mrr: PairedDifference;
}

/**
 * Paired comparison of two evaluations of the same queries: per-query Hit@1 and MRR differences,
 * resampled together (one seeded bootstrap per metric, same seed), reported in points.
 */
export function compareStacks(
  baseline: StackEvaluation,
  other: StackEvaluation,
  options: PairedBootstrapOptions = {},
): StackComparison {
  const byQuery = new Map(other.records.map((record) => [record.queryId, record]));
  const a: { hit1: number; mrr: number }[] = [];
  const b: { hit1: number; mrr: number }[] = [];
  for (const record of baseline.records) {
    const paired = byQuery.get(record.queryId);
    if (!paired) {
      throw new WeftError({
        code: 'WEFT_BAD_INPUT',
        message: `stacks "${baseline.stack}" and "${other.stack}" were not evaluated on the same queries (${record.queryId} is missing)`,
      });
    }
    a.push(record.metrics);
    b.push(paired.metrics);
  }
  if (byQuery.size !== baseline.records.length) {
    throw new WeftError({
      code: 'WEFT_BAD_INPUT',
      message: `stacks "${baseline.stack}" and "${other.stack}" differ in queries`,
    });
  }
  const points = (difference: PairedDifference): PairedDifference => ({
    ...difference,
    mean: 100 * difference.mean,
    low: 100 * difference.low,
    high: 100 * difference.high,
  });
  return {
    baseline: baseline.stack,
    stack: other.stack,
    n: a.length,
    hit1: points(
      pairedBootstrap(
        a.map((m) => m.hit1),
        b.map((m) => m.hit1),
        options,
      ),
    ),
    mrr: points(
      pairedBootstrap(
        a.map((m) => m.mrr),
        b.map((m) => m.mrr),
        options,
      ),
    ),
  };
}
