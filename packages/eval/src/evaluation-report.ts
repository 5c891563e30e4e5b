import { defaultLinkingMinConfidence } from './anchor-linking.ts';
import type { StackComparison } from './compare-stacks.ts';
import type { Evaluation } from './evaluate-stacks.ts';
import { formatPercent, roundPercent } from './format-percent.ts';
import { minDifferingQueries } from './paired-bootstrap.ts';

/** Linking figures of one stack (`LinkingSummary`, rounded): shares in percent. */
export interface LinkingFigures {
  /** Queries with gold anchors. */
  readonly n: number;
  /** Share of queries with every gold anchor among the top-3 candidates of a counted plan anchor. */
  readonly recall: number;
  /** Share with every gold anchor the top candidate of a counted plan anchor. */
  readonly recallTop1: number;
  readonly mentionsPerQuery: number;
  /** Share of counted plan anchors whose top candidate is a gold anchor. */
  readonly precision: number;
  /** Share of the queries with gold paths whose gold path is among the plan's first 3 readings. */
  readonly pathTop3?: number;
}

/**
 * The machine-readable summary (`weft eval --json`): metrics in percent rounded once to one decimal
 * (`roundPercent`, as every table and the explorer show them), latency in milliseconds.
 */
export interface EvaluationSummary {
  readonly set: string;
  readonly split: string;
  readonly n: number;
  readonly listLength: number;
  /**
   * What the stacks were given instead of their own work, e.g. `anchors` (gold anchors for every
   * plan) or `model` / `model, noise 0.3` (the oracle language model); absent for a plain run.
   */
  readonly oracle?: string;
  readonly stacks: readonly {
    readonly stack: string;
    readonly hit1: number;
    readonly hit5: number;
    readonly recall20: number;
    readonly mrr: number;
    readonly latencyMs: { readonly p50: number; readonly p95: number };
    /** Mean LLM calls per query. */
    readonly llmCallsPerQuery: number;
    /** Median LLM calls per query (cost-adaptive stacks call on some queries only). */
    readonly llmCallsMedian: number;
    /** The most LLM calls any one query took (loops such as HybGRAG's critic rounds vary per query). */
    readonly llmCallsMax: number;
    /** Mean input and output tokens per query, over the stack's LLM calls. */
    readonly tokensPerQuery: { readonly input: number; readonly output: number };
    /** The plans' anchors against the gold anchors, when the query set carries them. */
    readonly linking?: LinkingFigures;
  }[];
  /** Paired differences against the baseline (points, 95% bootstrap interval). */
  readonly comparisons: readonly {
    readonly baseline: string;
    readonly stack: string;
    readonly hit1: {
      readonly diff: number;
      readonly low: number;
      readonly high: number;
      readonly significant: boolean;
    };
    readonly mrr: {
      readonly diff: number;
      readonly low: number;
      readonly high: number;
      readonly significant: boolean;
    };
  }[];
}

const round = (value: number, digits = 2) => {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
};

export function evaluationSummary(
  evaluation: Evaluation,
  labels: { readonly set: string; readonly split: string; readonly oracle?: string },
  comparisons: readonly StackComparison[] = [],
): EvaluationSummary {
  return {
    set: labels.set,
    split: labels.split,
    n: evaluation.n,
    listLength: evaluation.listLength,
    ...(labels.oracle ? { oracle: labels.oracle } : {}),
    stacks: evaluation.stacks.map((stack) => ({
      stack: stack.stack,
      hit1: roundPercent(stack.metrics.hit1),
      hit5: roundPercent(stack.metrics.hit5),
      recall20: roundPercent(stack.metrics.recall20),
      mrr: roundPercent(stack.metrics.mrr),
      latencyMs: { p50: round(stack.latencyMs.p50, 1), p95: round(stack.latencyMs.p95, 1) },
      llmCallsPerQuery: round(stack.llmCallsPerQuery, 3),
      llmCallsMedian: median(stack.records.map((r) => r.llmCalls)),
      llmCallsMax: Math.max(0, ...stack.records.map((r) => r.llmCalls)),
      tokensPerQuery: {
        input: round(stack.tokensPerQuery.input, 1),
        output: round(stack.tokensPerQuery.output, 1),
      },
      ...(stack.linking
        ? {
            linking: {
              n: stack.linking.n,
              recall: round(stack.linking.recall),
              recallTop1: round(stack.linking.recallTop1),
              mentionsPerQuery: round(stack.linking.mentionsPerQuery),
              precision: round(stack.linking.precision),
              ...(stack.linking.pathTop3 === undefined ? {} : { pathTop3: round(stack.linking.pathTop3) }),
            },
          }
        : {}),
    })),
    comparisons: comparisons.map((comparison) => ({
      baseline: comparison.baseline,
      stack: comparison.stack,
      hit1: {
        diff: roundPercent(comparison.hit1.mean),
        low: roundPercent(comparison.hit1.low),
        high: roundPercent(comparison.hit1.high),
        significant: comparison.hit1.significant,
      },
      mrr: {
        diff: roundPercent(comparison.mrr.mean),
        low: roundPercent(comparison.mrr.low),
        high: roundPercent(comparison.mrr.high),
        significant: comparison.mrr.significant,
      },
    })),
  };
}

function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const signed = (value: number) => `${value >= 0 ? '+' : ''}${formatPercent(value)}`;

/** The summary as a Markdown table for people, with the paired comparisons below it. */
export function evaluationMarkdown(summary: EvaluationSummary): string {
  const lines = [
    `**${summary.set}** (${summary.split}), ${summary.n} queries, rankings of ${summary.listLength}${summary.oracle ? `, oracle: ${summary.oracle}` : ''}; metrics in %`,
    '',
    '| stack | Hit@1 | Hit@5 | Recall@20 | MRR | p50 ms | p95 ms | LLM calls/query (median, max) | tokens/query (in + out) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...summary.stacks.map(
      (s) =>
        `| ${s.stack} | ${formatPercent(s.hit1)} | ${formatPercent(s.hit5)} | ${formatPercent(s.recall20)} | ${formatPercent(s.mrr)} | ${s.latencyMs.p50.toFixed(1)} | ${s.latencyMs.p95.toFixed(1)} | ${s.llmCallsPerQuery.toFixed(2)} (${s.llmCallsMedian}, ${s.llmCallsMax}) | ${s.tokensPerQuery.input.toFixed(0)} + ${s.tokensPerQuery.output.toFixed(0)} |`,
    ),
  ];
  const linked = summary.stacks.filter((s) => s.linking);
  if (linked.length > 0) {
    lines.push(
      '',
      `Anchor linking against the gold anchors (${linked[0]!.linking!.n} queries carry them; plan anchors of confidence ≥ ${defaultLinkingMinConfidence} count):`,
      '',
      '| stack | all gold linked (top 3) | all gold top candidate | mentions/question | precision | gold path among the top 3 readings |',
      '|---|---:|---:|---:|---:|---:|',
      ...linked.map(
        (s) =>
          `| ${s.stack} | ${s.linking!.recall.toFixed(1)} | ${s.linking!.recallTop1.toFixed(1)} | ${s.linking!.mentionsPerQuery.toFixed(2)} | ${s.linking!.precision.toFixed(1)} | ${s.linking!.pathTop3 === undefined ? '–' : s.linking!.pathTop3.toFixed(1)} |`,
      ),
    );
  }
  if (summary.comparisons.length > 0) {
    lines.push(
      '',
      `Paired differences (points, 95% bootstrap CI; * = beyond noise: the CI excludes 0 and at least ${minDifferingQueries} queries differ):`,
      '',
      '| stack vs baseline | ΔHit@1 | CI | ΔMRR | CI |',
      '|---|---:|---|---:|---|',
      ...summary.comparisons.map(
        (c) =>
          `| ${c.stack} vs ${c.baseline} | ${signed(c.hit1.diff)}${c.hit1.significant ? '*' : ''} | [${signed(c.hit1.low)}, ${signed(c.hit1.high)}] | ${signed(c.mrr.diff)}${c.mrr.significant ? '*' : ''} | [${signed(c.mrr.low)}, ${signed(c.mrr.high)}] |`,
      ),
    );
  }
  return lines.join('\n');
}
