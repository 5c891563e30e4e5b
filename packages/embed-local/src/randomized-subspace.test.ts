import { describe, expect, it } from 'vitest';
import { dominantRowSubspace, toCsr } from './randomized-subspace.ts';

describe('dominantRowSubspace', () => {
  it('returns orthonormal columns spanning a low-rank matrix row space', () => {
    // 40 rows that are combinations of 3 fixed sparse directions over 12 columns: rank 3.
    const directions = [
      [1, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0, 3],
      [0, 1, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0],
      [0, 0, 0, 2, 0, 1, 0, 1, 0, 0, 2, 0],
    ];
    const rows = Array.from({ length: 40 }, (_, r) => {
      const dense = directions[0]!.map((_, c) =>
        directions.reduce((s, d, k) => s + d[c]! * (((r + 1) * (k + 2)) % 5), 0),
      );
      const indices = dense.flatMap((v, c) => (v !== 0 ? [c] : []));
      return { indices: Int32Array.from(indices), values: Float32Array.from(indices.map((c) => dense[c]!)) };
    });
    const rank = 3;
    const q = dominantRowSubspace(toCsr(rows, 12), rank, { powerIterations: 1, seed: 1 });
    for (let i = 0; i < rank; i++) {
      for (let j = 0; j < rank; j++) {
        let dot = 0;
        for (let c = 0; c < 12; c++) dot += q[c * rank + i]! * q[c * rank + j]!;
        expect(dot).toBeCloseTo(i === j ? 1 : 0, 6);
      }
    }
    // Every direction is reproduced by projecting onto the basis and back.
    for (const d of directions) {
      const coords = Array.from({ length: rank }, (_, j) =>
        d.reduce((s, v, c) => s + v * q[c * rank + j]!, 0),
      );
      for (const [c, v] of d.entries()) {
        expect(coords.reduce((s, x, j) => s + x * q[c * rank + j]!, 0)).toBeCloseTo(v, 6);
      }
    }
  });
});
