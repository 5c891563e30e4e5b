import { describe, expect, it } from 'vitest';
import type { Evaluation } from './evaluate-stacks.ts';
import { evaluationMarkdown, evaluationSummary } from './evaluation-report.ts';
import { formatPercent, roundPercent } from './format-percent.ts';

describe('formatPercent', () => {
  it('rounds once, half up, to one decimal', () => {
    expect(formatPercent(59.947)).toBe('59.9');
    expect(formatPercent(59.95)).toBe('60.0');
    expect(formatPercent(100 / 3)).toBe('33.3');
    expect(formatPercent(200 / 3)).toBe('66.7');
    expect(formatPercent(-8.333)).toBe('-8.3');
    expect(formatPercent(0)).toBe('0.0');
    expect(roundPercent(1.25)).toBe(1.3);
  });

  it('the eval summary and its table round the same way (an MRR of 59.947 is 59.9, not 60.0)', () => {
    const evaluation = {
      n: 19,
      listLength: 100,
      stacks: [
        {
          stack: 'bm25',
          n: 19,
          metrics: { hit1: 52.6315789, hit5: 63.1578947, recall20: 70, mrr: 59.947 },
          latencyMs: { p50: 1, p95: 2, mean: 1 },
          llmCallsPerQuery: 0,
          tokensPerQuery: { input: 0, output: 0 },
          errors: 0,
          records: [],
        },
      ],
    } as unknown as Evaluation;
    const summary = evaluationSummary(evaluation, { set: 's', split: 'test' });
    expect(summary.stacks[0]!.mrr).toBe(59.9);
    expect(evaluationMarkdown(summary)).toContain('| bm25 | 52.6 | 63.2 | 70.0 | 59.9 |');
  });
});
