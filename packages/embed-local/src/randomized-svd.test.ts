import { describe, expect, it } from 'vitest';
import { orthonormalizeColumns, randomizedSvd, toCsr } from './randomized-svd.ts';

// 40 rows that are combinations of 3 fixed sparse directions over 12 columns: rank 3.
const directions = [
  [1, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0, 3],
  [0, 1, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0],
  [0, 0, 0, 2, 0, 1, 0, 1, 0, 0, 2, 0],
];
const dense = Array.from({ length: 40 }, (_, r) =>
  directions[0]!.map((_, c) => directions.reduce((s, d, k) => s + d[c]! * (((r + 1) * (k + 2)) % 5), 0)),
);
const rows = dense.map((row) => {
  const indices = row.flatMap((v, c) => (v !== 0 ? [c] : []));
  return { indices: Int32Array.from(indices), values: Float32Array.from(indices.map((c) => row[c]!)) };
});

/** Exact singular values of the dense matrix via the eigenvalues of AᵀA (power iteration + deflation). */
function exactSingularValues(a: number[][], k: number): number[] {
  const n = a[0]!.length;
  const ata = Array.from({ length: n }, (_, i) =>
    Array.from({ length: n }, (_, j) => a.reduce((s, row) => s + row[i]! * row[j]!, 0)),
  );
  const out: number[] = [];
  for (let t = 0; t < k; t++) {
    let v = Array.from({ length: n }, (_, i) => 1 + i * 0.1);
    let lambda = 0;
    for (let it = 0; it < 2000; it++) {
      const w = ata.map((row) => row.reduce((s, x, j) => s + x * v[j]!, 0));
      lambda = Math.hypot(...w);
      v = w.map((x) => x / lambda);
    }
    out.push(Math.sqrt(lambda));
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) ata[i]![j]! -= lambda * v[i]! * v[j]!;
  }
  return out;
}

describe('randomizedSvd', () => {
  it('recovers the singular values and an orthonormal right basis of a low-rank matrix', () => {
    const rank = 3;
    const svd = randomizedSvd(toCsr(rows, 12), rank, { powerIterations: 1, oversample: 2, seed: 1 });
    const q = svd.vectors;
    for (let i = 0; i < rank; i++) {
      for (let j = 0; j < rank; j++) {
        let dot = 0;
        for (let c = 0; c < 12; c++) dot += q[c * rank + i]! * q[c * rank + j]!;
        expect(dot).toBeCloseTo(i === j ? 1 : 0, 5);
      }
    }
    const exact = exactSingularValues(dense, rank);
    Array.from(svd.singularValues).forEach((s, i) => {
      expect(s / exact[i]!).toBeCloseTo(1, 4);
    });
    // Every direction is reproduced by projecting onto the basis and back.
    for (const d of directions) {
      const coords = Array.from({ length: rank }, (_, j) =>
        d.reduce((s, v, c) => s + v * q[c * rank + j]!, 0),
      );
      for (const [c, v] of d.entries()) {
        expect(coords.reduce((s, x, j) => s + x * q[c * rank + j]!, 0)).toBeCloseTo(v, 4);
      }
    }
  });

  it('orthonormalises columns and zeroes a dependent one', () => {
    const n = 50;
    const l = 3;
    const y = new Float32Array(n * l);
    for (let r = 0; r < n; r++) {
      y[r * l] = Math.sin(r);
      y[r * l + 1] = Math.cos(r * 0.7);
      y[r * l + 2] = 2 * y[r * l]! - y[r * l + 1]!;
    }
    orthonormalizeColumns(y, n, l);
    const dot = (i: number, j: number) => {
      let s = 0;
      for (let r = 0; r < n; r++) s += y[r * l + i]! * y[r * l + j]!;
      return s;
    };
    expect(dot(0, 0)).toBeCloseTo(1, 5);
    expect(dot(1, 1)).toBeCloseTo(1, 5);
    expect(dot(0, 1)).toBeCloseTo(0, 5);
    expect(dot(2, 2)).toBeCloseTo(0, 5);
  });
});
