import { describe, expect, it } from 'vitest';
import { fitLogistic, linearScore, sigmoid } from './logistic-regression.ts';
import { seededRandom } from './seeded-random.ts';

describe('seededRandom', () => {
  it('gives the same sequence for a seed, another for another seed, all in [0, 1)', () => {
    const a = Array.from({ length: 100 }, seededRandom(42));
    expect(Array.from({ length: 100 }, seededRandom(42))).toEqual(a);
    expect(Array.from({ length: 100 }, seededRandom(43))).not.toEqual(a);
    expect(a.every((x) => x >= 0 && x < 1)).toBe(true);
  });
});

describe('fitLogistic', () => {
  const next = seededRandom(7);
  // y = 1 when 2·x0 − x1 > 0; x2 is noise.
  const rows = Array.from({ length: 400 }, () => {
    const x = [next() * 2 - 1, next() * 2 - 1, next() * 2 - 1];
    return { x, y: (2 * x[0]! - x[1]! > 0 ? 1 : 0) as 0 | 1 };
  });

  it('recovers a linear rule: accurate, right signs, the noise feature near zero', () => {
    const model = fitLogistic(['a', 'b', 'noise'], rows, { l2: 1e-4, epochs: 600 });
    const accuracy = rows.filter((r) => (sigmoid(linearScore(model, r.x)) > 0.5 ? 1 : 0) === r.y).length;
    expect(accuracy / rows.length).toBeGreaterThan(0.95);
    const perUnit = model.weights.map((w, i) => w / model.scale[i]!);
    expect(perUnit[0]).toBeGreaterThan(0);
    expect(perUnit[1]).toBeLessThan(0);
    expect(Math.abs(perUnit[2]!)).toBeLessThan(0.25 * Math.abs(perUnit[0]!));
  });

  it('row weights count: a heavily weighted contrary row moves the boundary towards it', () => {
    const probe = [0.05, 0, 0];
    const plain = fitLogistic(['a', 'b', 'noise'], rows, { epochs: 300 });
    const weighted = fitLogistic(['a', 'b', 'noise'], [...rows, { x: probe, y: 0, weight: 200 }], {
      epochs: 300,
    });
    expect(linearScore(weighted, probe)).toBeLessThan(linearScore(plain, probe));
  });
});
