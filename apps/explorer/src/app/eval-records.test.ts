import { describe, expect, it } from 'vitest';
import { compareRecords, filterLabels, parseRecords, recordStacks } from './eval-records.ts';

const record = (stack: string, queryId: string, ranking: string[], gold: string[], mrr: number) =>
  JSON.stringify({
    stack,
    queryId,
    query: `question ${queryId}`,
    split: 'test',
    ranking: ranking.map((id, i) => ({ id, score: 10 - i })),
    gold,
    metrics: { hit1: mrr === 1 ? 1 : 0, hit5: mrr >= 0.2 ? 1 : 0, recall20: mrr > 0 ? 1 : 0, mrr },
    timeMs: 3,
    llmCalls: 0,
    inputTokens: 0,
    outputTokens: 0,
  });

const jsonl = [
  record('bm25', 'q1', ['a', 'b'], ['b'], 0.5),
  record('default', 'q1', ['b', 'a'], ['b'], 1),
  record('bm25', 'q2', ['c'], ['c'], 1),
  record('default', 'q2', ['d', 'e', 'c'], ['c'], 1 / 3),
  record('bm25', 'q3', ['x'], ['y'], 0),
  record('default', 'q3', ['x'], ['y'], 0),
  record('default', 'q4', ['z'], ['z'], 1),
  '{"not": "a record"}',
  'not json',
  '',
].join('\n');

describe('eval records', () => {
  it('parses records.jsonl and reports lines that are not records', () => {
    const { records, problems } = parseRecords(jsonl);
    expect(records).toHaveLength(7);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^line 8: not a query record/);
    expect(problems[1]).toMatch(/^line 9:/);
    expect(recordStacks(records)).toEqual(['bm25', 'default']);
  });

  it('compares two stacks query by query over the queries both answered, biggest changes first', () => {
    const comparison = compareRecords(parseRecords(jsonl).records, 'bm25', 'default');
    expect(comparison).toMatchObject({ wins: 1, losses: 1, ties: 1 });
    expect(comparison.queries.map((q) => [q.queryId, q.outcome, q.rankA, q.rankB])).toEqual([
      ['q2', 'loss', 1, 3],
      ['q1', 'win', 2, 1],
      ['q3', 'tie', undefined, undefined],
    ]);
    expect(comparison.queries[1]!.delta).toBeCloseTo(0.5);
    expect(comparison.meanMrr.a).toBeCloseTo(0.5);
    expect(comparison.meanMrr.b).toBeCloseTo((1 + 1 / 3) / 3);
    expect(comparison.hit1).toEqual({ a: 1 / 3, b: 1 / 3 });
  });
});

describe('filterLabels', () => {
  it('spells every filter of the eval browser (no "losss of B")', () => {
    expect(Object.values(filterLabels)).toEqual(['all queries', 'wins of B', 'losses of B', 'ties']);
    for (const label of Object.values(filterLabels)) expect(label).not.toMatch(/sss/);
  });
});
