import { EigenvalueDecomposition, Matrix } from 'ml-matrix';
import type { SparseVector } from './tfidf-vectorizer.ts';

/** Sparse rows in compressed-row form. */
export interface CsrMatrix {
  readonly rows: number;
  readonly columns: number;
  readonly rowStart: Int32Array;
  readonly columnIndex: Int32Array;
  readonly values: Float32Array;
}

/** Packs sparse rows into one CSR matrix (one allocation per array instead of one per row). */
export function toCsr(rows: readonly SparseVector[], columns: number): CsrMatrix {
  const rowStart = new Int32Array(rows.length + 1);
  for (let r = 0; r < rows.length; r++) rowStart[r + 1] = rowStart[r]! + rows[r]!.indices.length;
  const columnIndex = new Int32Array(rowStart[rows.length]!);
  const values = new Float32Array(columnIndex.length);
  rows.forEach((row, r) => {
    columnIndex.set(row.indices, rowStart[r]!);
    values.set(row.values, rowStart[r]!);
  });
  return { rows: rows.length, columns, rowStart, columnIndex, values };
}

/** mulberry32: small, fast, seeded, so the same corpus always gives the same model. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * An orthonormal basis (columns × `rank`, row-major) of the dominant right singular subspace of `a`:
 * the randomized range finder of Halko, Martinsson & Tropp (2011) applied to Aᵀ, with power iterations.
 * Projecting a TF-IDF row onto it gives its LSA coordinates up to a rotation, which cosine similarity
 * does not see, so the small SVD that would fix that rotation is skipped.
 */
export function dominantRowSubspace(
  a: CsrMatrix,
  rank: number,
  options: { powerIterations: number; seed: number },
): Float64Array {
  const { rows, columns, rowStart, columnIndex, values } = a;
  const l = rank;
  let y = new Float64Array(columns * l);
  // Y = Aᵀ Ω with a Rademacher Ω (rows × l) drawn row by row, never stored.
  const next = random(options.seed);
  const omega = new Float64Array(l);
  for (let r = 0; r < rows; r++) {
    for (let j = 0; j < l; j++) omega[j] = next() < 0.5 ? -1 : 1;
    for (let k = rowStart[r]!; k < rowStart[r + 1]!; k++) {
      const base = columnIndex[k]! * l;
      const v = values[k]!;
      for (let j = 0; j < l; j++) y[base + j] = y[base + j]! + v * omega[j]!;
    }
  }
  // Power iterations Y ← Aᵀ(A Y) sharpen the spectrum. Orthonormalising between them guards against
  // round-off when many are run; with the one or two used here float64 is ample, and each skipped
  // orthonormalisation (features × rank² work) is most of the fitting time.
  const z = new Float64Array(l);
  for (let q = 0; q < options.powerIterations; q++) {
    const next = new Float64Array(columns * l);
    for (let r = 0; r < rows; r++) {
      z.fill(0);
      for (let k = rowStart[r]!; k < rowStart[r + 1]!; k++) {
        const base = columnIndex[k]! * l;
        const v = values[k]!;
        for (let j = 0; j < l; j++) z[j] = z[j]! + v * y[base + j]!;
      }
      for (let k = rowStart[r]!; k < rowStart[r + 1]!; k++) {
        const base = columnIndex[k]! * l;
        const v = values[k]!;
        for (let j = 0; j < l; j++) next[base + j] = next[base + j]! + v * z[j]!;
      }
    }
    y = next;
  }
  orthonormalizeColumns(y, columns, l);
  return y;
}

/**
 * Makes the columns of the tall row-major matrix `y` (n × l) orthonormal in place, ordered by the
 * energy they carry: Y ← Y W Λ^{-1/2} with YᵀY = W Λ Wᵀ. Directions with no energy become zero columns.
 */
export function orthonormalizeColumns(y: Float64Array, n: number, l: number): void {
  const gram = new Float64Array(l * l);
  for (let r = 0; r < n; r++) {
    const base = r * l;
    for (let i = 0; i < l; i++) {
      const yi = y[base + i]!;
      if (yi === 0) continue;
      const row = i * l;
      for (let j = i; j < l; j++) gram[row + j] = gram[row + j]! + yi * y[base + j]!;
    }
  }
  const g = new Matrix(l, l);
  for (let i = 0; i < l; i++) {
    for (let j = i; j < l; j++) {
      g.set(i, j, gram[i * l + j]!);
      g.set(j, i, gram[i * l + j]!);
    }
  }
  const eig = new EigenvalueDecomposition(g, { assumeSymmetric: true });
  const lambda = eig.realEigenvalues;
  const w = eig.eigenvectorMatrix;
  const order = lambda.map((_, i) => i).sort((p, q) => lambda[q]! - lambda[p]!);
  const top = lambda[order[0]!] ?? 0;
  const m = new Float64Array(l * l);
  order.forEach((source, target) => {
    const value = lambda[source]!;
    if (!(value > top * 1e-12) || value <= 0) return;
    const scale = 1 / Math.sqrt(value);
    for (let i = 0; i < l; i++) m[i * l + target] = w.get(i, source) * scale;
  });
  const row = new Float64Array(l);
  for (let r = 0; r < n; r++) {
    const base = r * l;
    row.fill(0);
    for (let i = 0; i < l; i++) {
      const yi = y[base + i]!;
      if (yi === 0) continue;
      const mi = i * l;
      for (let j = 0; j < l; j++) row[j] = row[j]! + yi * m[mi + j]!;
    }
    y.set(row, base);
  }
}
