import { describe, expect, it } from 'vitest';
import { seededRandom } from '@weft/kit';
import { pairedBootstrap, quantileSorted } from './paired-bootstrap.ts';

describe('pairedBootstrap', () => {
  it('is deterministic for a seed and changes with it', () => {
    const a = [1, 0, 0, 1, 0, 1, 0, 0, 1, 0];
    const b = [1, 1, 0, 1, 1, 1, 0, 1, 1, 0];
    const first = pairedBootstrap(a, b, { seed: 7 });
    expect(pairedBootstrap(a, b, { seed: 7 })).toEqual(first);
    expect(pairedBootstrap(a, b, { seed: 8 }).low).not.toBe(first.low);
    expect(first.mean).toBeCloseTo(0.3, 12);
    expect(first.low).toBeLessThanOrEqual(first.mean);
    expect(first.high).toBeGreaterThanOrEqual(first.mean);
  });

  it('gives a zero-width interval when every query differs by the same amount', () => {
    const result = pairedBootstrap([0, 0, 0, 0, 0, 0], [1, 1, 1, 1, 1, 1]);
    expect(result).toMatchObject({ mean: 1, low: 1, high: 1, significant: true, n: 6, differing: 6 });
  });

  it('never calls a difference beyond noise when fewer than six queries differ', () => {
    // One test query: the interval is [-1, -1], which excludes 0 but says nothing.
    expect(pairedBootstrap([1], [0])).toMatchObject({ mean: -1, low: -1, high: -1, significant: false });
    expect(pairedBootstrap([0, 0, 0, 0, 0], [1, 1, 1, 1, 1]).significant).toBe(false);
    // Many queries, five of which differ: still too few to tell.
    const a = [...Array(95).fill(0), 0, 0, 0, 0, 0];
    const b = [...Array(95).fill(0), 1, 1, 1, 1, 1];
    expect(pairedBootstrap(a, b)).toMatchObject({ differing: 5, significant: false });
  });

  it('is not significant for identical stacks (ties everywhere) or for pure noise', () => {
    expect(pairedBootstrap([1, 0, 1], [1, 0, 1])).toMatchObject({
      mean: 0,
      low: 0,
      high: 0,
      significant: false,
    });
    // b wins 5 queries and loses 5: mean 0, interval straddles 0.
    const a = [1, 1, 1, 1, 1, 0, 0, 0, 0, 0];
    const b = [0, 0, 0, 0, 0, 1, 1, 1, 1, 1];
    const noise = pairedBootstrap(a, b, { seed: 3 });
    expect(noise.mean).toBe(0);
    expect(noise.low).toBeLessThan(0);
    expect(noise.high).toBeGreaterThan(0);
    expect(noise.significant).toBe(false);
  });

  it('finds a consistent improvement significant with enough queries', () => {
    const n = 400;
    const a = Array.from({ length: n }, (_, i) => (i % 4 === 0 ? 1 : 0));
    const b = Array.from({ length: n }, (_, i) => (i % 4 === 0 || i % 4 === 1 ? 1 : 0));
    const result = pairedBootstrap(a, b, { seed: 1 });
    expect(result.mean).toBeCloseTo(0.25, 12);
    expect(result.low).toBeGreaterThan(0.18);
    expect(result.high).toBeLessThan(0.32);
    expect(result.significant).toBe(true);
  });

  it('rejects unpaired samples and handles no queries', () => {
    expect(() => pairedBootstrap([1], [1, 0])).toThrow(/length/);
    expect(pairedBootstrap([], [])).toMatchObject({ n: 0, mean: 0, significant: false });
  });
});

describe('helpers', () => {
  it('quantileSorted interpolates between ranks', () => {
    expect(quantileSorted([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantileSorted([1, 2, 3, 4, 5], 0.95)).toBeCloseTo(4.8, 12);
    expect(quantileSorted([7], 0.95)).toBe(7);
  });
  it('seededRandom gives values in [0, 1)', () => {
    const random = seededRandom(42);
    const values = Array.from({ length: 1000 }, random);
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...values)).toBeLessThan(1);
    expect(new Set(values).size).toBeGreaterThan(990);
  });
});
