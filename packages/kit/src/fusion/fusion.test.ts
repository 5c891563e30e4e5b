import type { Candidate } from '@weft/spec';
import { describe, expect, it } from 'vitest';
import { reciprocalRankFusion, weightedScoreFusion } from './fusion.ts';

const list = (source: string, ...entries: [string, number][]): Candidate[] =>
  entries.map(([id, score]) => ({
    id,
    score,
    scores: { [source]: score },
    trajectories: [{ hops: [{ node: id, via: 'text' }] }],
    source,
  }));

describe('reciprocalRankFusion', () => {
  it('scores Σ 1/(k + rank) and merges trajectories and component scores', () => {
    const fused = reciprocalRankFusion({ k: 60 }).fuse(
      [list('bm25', ['a', 9], ['b', 5]), list('dense', ['b', 0.9], ['c', 0.5])],
      { limit: 10 },
    );
    expect(fused.map((c) => c.id)).toEqual(['b', 'a', 'c']);
    expect(fused[0]!.score).toBeCloseTo(1 / 62 + 1 / 61, 12);
    expect(fused[1]!.score).toBeCloseTo(1 / 61, 12);
    expect(fused[0]!.scores).toMatchObject({ bm25: 5, dense: 0.9 });
    expect(fused[0]!.trajectories).toHaveLength(2);
    expect(fused[0]!.source).toBe('bm25+dense');
  });

  it('counts an id repeated within one list once, and breaks ties by id', () => {
    const fused = reciprocalRankFusion().fuse([list('x', ['b', 1], ['b', 1]), list('y', ['a', 1])], {
      limit: 10,
    });
    expect(fused.map((c) => c.id)).toEqual(['a', 'b']);
    expect(fused[1]!.score).toBeCloseTo(1 / 61, 12);
  });

  it('applies weights and the limit', () => {
    const fused = reciprocalRankFusion({ weights: [0, 1] }).fuse([list('x', ['a', 1]), list('y', ['b', 1])], {
      limit: 1,
    });
    expect(fused.map((c) => c.id)).toEqual(['b']);
  });
});

describe('weightedScoreFusion', () => {
  it('min-max normalises each list before the weighted sum', () => {
    const fused = weightedScoreFusion({ weights: [1, 2] }).fuse(
      [list('bm25', ['a', 10], ['b', 0]), list('dense', ['b', 0.8], ['c', 0.4])],
      { limit: 10 },
    );
    const byId = Object.fromEntries(fused.map((c) => [c.id, c.score]));
    expect(byId).toEqual({ a: 1, b: 2, c: 0 });
    expect(fused[0]!.id).toBe('b');
  });

  it('maps a list of equal scores to 1', () => {
    const fused = weightedScoreFusion().fuse([list('x', ['a', 3], ['b', 3])], { limit: 10 });
    expect(fused.map((c) => c.score)).toEqual([1, 1]);
  });
});
