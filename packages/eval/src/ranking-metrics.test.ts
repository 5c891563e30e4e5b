import { describe, expect, it } from 'vitest';
import { meanMetricsPercent, rankingMetrics, targetRanking } from './ranking-metrics.ts';

const ids = (n: number, prefix = 'x') => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);

describe('rankingMetrics', () => {
  it('scores a gold answer at rank 1', () => {
    expect(rankingMetrics(['g', 'a', 'b'], ['g'])).toEqual({ hit1: 1, hit5: 1, recall20: 1, mrr: 1 });
  });

  it('scores a gold answer at rank 3 (hit@5 but not hit@1, MRR 1/3)', () => {
    expect(rankingMetrics(['a', 'b', 'g', 'c'], ['g'])).toEqual({
      hit1: 0,
      hit5: 1,
      recall20: 1,
      mrr: 1 / 3,
    });
  });

  it('scores a gold answer at rank 6 and at rank 25 (past Recall@20, still in MRR)', () => {
    expect(rankingMetrics([...ids(5), 'g'], ['g'])).toEqual({ hit1: 0, hit5: 0, recall20: 1, mrr: 1 / 6 });
    expect(rankingMetrics([...ids(24), 'g'], ['g'])).toEqual({ hit1: 0, hit5: 0, recall20: 0, mrr: 1 / 25 });
  });

  it('gives 0 everywhere for an empty ranking and for gold absent from the list', () => {
    const zero = { hit1: 0, hit5: 0, recall20: 0, mrr: 0 };
    expect(rankingMetrics([], ['g'])).toEqual(zero);
    expect(rankingMetrics(ids(100), ['g'])).toEqual(zero);
  });

  it('divides recall by |gold|, not by min(20, |gold|), for multi-answer queries', () => {
    // 25 gold answers, all 20 first positions are gold: recall 20/25, not 1.
    const gold = ids(25, 'g');
    expect(rankingMetrics(gold, gold).recall20).toBeCloseTo(0.8, 12);
    // 4 gold, 2 of them in the top 20 (ranks 2 and 7), one at rank 30, one absent.
    const ranking = ['a', 'g1', ...ids(4), 'g2', ...ids(22, 'y'), 'g3'];
    expect(ranking.indexOf('g3')).toBe(29);
    expect(rankingMetrics(ranking, ['g1', 'g2', 'g3', 'g4'])).toEqual({
      hit1: 0,
      hit5: 1,
      recall20: 0.5,
      mrr: 0.5,
    });
  });

  it('counts a repeated id once, at its first position', () => {
    // Without dedup g would sit at rank 4; with it, rank 3.
    expect(rankingMetrics(['a', 'b', 'a', 'g'], ['g']).mrr).toBeCloseTo(1 / 3, 12);
    // A repeated gold answer is not counted twice in recall.
    expect(rankingMetrics(['g1', 'g1', 'g1'], ['g1', 'g2']).recall20).toBe(0.5);
  });

  it('reads positions, not scores: tied candidates keep the order they were returned in', () => {
    // Two candidates tied on score: whichever the retriever put first is rank 1.
    expect(rankingMetrics(['a', 'g'], ['g'])).toMatchObject({ hit1: 0, mrr: 0.5 });
    expect(rankingMetrics(['g', 'a'], ['g'])).toMatchObject({ hit1: 1, mrr: 1 });
  });

  it('ignores repeated gold ids and rejects an empty gold set', () => {
    expect(rankingMetrics(['x', 'g'], ['g', 'g']).recall20).toBe(1);
    expect(() => rankingMetrics(['g'], [])).toThrow(/gold/);
  });
});

describe('meanMetricsPercent', () => {
  it('averages per-query figures in percent', () => {
    const mean = meanMetricsPercent([
      rankingMetrics(['g'], ['g']),
      rankingMetrics(['a', 'g'], ['g']),
      rankingMetrics([], ['g']),
    ]);
    expect(mean.hit1).toBeCloseTo(100 / 3, 10);
    expect(mean.hit5).toBeCloseTo(200 / 3, 10);
    expect(mean.mrr).toBeCloseTo(50, 10);
    expect(meanMetricsPercent([])).toEqual({ hit1: 0, hit5: 0, recall20: 0, mrr: 0 });
  });
});

describe('targetRanking', () => {
  const types: Record<string, string> = { p1: 'product', p2: 'product', b1: 'brand' };
  it('keeps only target types, in order, without repeats', () => {
    const ranking = targetRanking(
      ['b1', 'p2', 'p2', 'p1', 'unknown'],
      new Set(['product']),
      (id) => types[id],
    );
    expect(ranking).toEqual(['p2', 'p1']);
    // The gold product moves up to rank 1 once the brand (not a target type) is dropped.
    expect(rankingMetrics(ranking, ['p2']).hit1).toBe(1);
  });
  it('keeps everything, once, when every type counts', () => {
    expect(targetRanking(['b1', 'p1', 'b1'], undefined, () => undefined)).toEqual(['b1', 'p1']);
  });
});
