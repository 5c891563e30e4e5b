import { seededRandom } from '@weft/kit';
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

export interface RandomizedSvdOptions {
  /** Power iterations (each re-orthonormalised): more = closer to the exact truncated SVD, slower. */
  readonly powerIterations: number;
  /** Extra random directions carried through the iterations and dropped at the end (Halko: 5–10). */
  readonly oversample: number;
  readonly seed: number;
}

/** The top `rank` right singular vectors (columns × rank, row-major) and singular values (descending). */
export interface TruncatedSvd {
  readonly rank: number;
  readonly vectors: Float32Array;
  readonly singularValues: Float64Array;
}

/** A · Q for Q (columns × l, row-major): rows × l. */
function times(a: CsrMatrix, q: Float32Array, l: number): Float32Array {
  const out = new Float32Array(a.rows * l);
  const z = new Float64Array(l);
  for (let r = 0; r < a.rows; r++) {
    z.fill(0);
    for (let k = a.rowStart[r]!; k < a.rowStart[r + 1]!; k++) {
      const base = a.columnIndex[k]! * l;
      const v = a.values[k]!;
      for (let j = 0; j < l; j++) z[j] = z[j]! + v * q[base + j]!;
    }
    out.set(z, r * l);
  }
  return out;
}

/** Aᵀ · Z for Z (rows × l, row-major): columns × l. */
function transposeTimes(a: CsrMatrix, z: Float32Array, l: number): Float32Array {
  const out = new Float32Array(a.columns * l);
  for (let r = 0; r < a.rows; r++) {
    const zb = r * l;
    for (let k = a.rowStart[r]!; k < a.rowStart[r + 1]!; k++) {
      const base = a.columnIndex[k]! * l;
      const v = a.values[k]!;
      for (let j = 0; j < l; j++) out[base + j] = out[base + j]! + v * z[zb + j]!;
    }
  }
  return out;
}

/** YᵀY (l × l, both triangles), accumulated in float64. */
function gram(y: Float32Array, n: number, l: number): Float64Array {
  const g = new Float64Array(l * l);
  for (let r = 0; r < n; r++) {
    const base = r * l;
    for (let i = 0; i < l; i++) {
      const yi = y[base + i]!;
      if (yi === 0) continue;
      const row = i * l;
      for (let j = i; j < l; j++) g[row + j] = g[row + j]! + yi * y[base + j]!;
    }
  }
  for (let i = 0; i < l; i++) for (let j = 0; j < i; j++) g[i * l + j] = g[j * l + i]!;
  return g;
}

/**
 * Makes the columns of the tall row-major `y` (n × l) orthonormal in place by Cholesky QR
 * (YᵀY = RᵀR, Y ← Y R⁻¹): half the work of an eigen-based orthonormalisation, and accurate here
 * because it runs after every power step, so Y is never badly conditioned. A column that is (numerically)
 * a combination of the previous ones becomes zero.
 */
export function orthonormalizeColumns(y: Float32Array, n: number, l: number): void {
  const g = gram(y, n, l);
  // Upper-triangular R, row-major, by Cholesky of G.
  const rr = new Float64Array(l * l);
  const dead = new Uint8Array(l);
  const tiny = Math.max(...Array.from({ length: l }, (_, i) => g[i * l + i]!)) * 1e-10;
  for (let j = 0; j < l; j++) {
    let d = g[j * l + j]!;
    for (let k = 0; k < j; k++) d -= rr[k * l + j]! * rr[k * l + j]!;
    if (!(d > tiny)) {
      dead[j] = 1;
      continue;
    }
    const rjj = Math.sqrt(d);
    rr[j * l + j] = rjj;
    for (let i = j + 1; i < l; i++) {
      let s = g[j * l + i]!;
      for (let k = 0; k < j; k++) s -= rr[k * l + j]! * rr[k * l + i]!;
      rr[j * l + i] = s / rjj;
    }
  }
  // Each row y solves q R = y by forward substitution.
  const q = new Float64Array(l);
  for (let r = 0; r < n; r++) {
    const base = r * l;
    for (let j = 0; j < l; j++) {
      if (dead[j]) {
        q[j] = 0;
        continue;
      }
      let s = y[base + j]!;
      for (let k = 0; k < j; k++) s -= q[k]! * rr[k * l + j]!;
      q[j] = s / rr[j * l + j]!;
    }
    y.set(q, base);
  }
}

/**
 * Truncated SVD of a sparse matrix by the randomized range finder of Halko, Martinsson & Tropp (2011)
 * on Aᵀ: Q = orth(Aᵀ Ω), `powerIterations` × Q = orth(Aᵀ A Q), then the exact SVD of the small
 * projected problem (QᵀAᵀAQ = W Σ² Wᵀ) gives V = Q W and Σ. Ω is Rademacher, drawn row by row.
 */
export function randomizedSvd(a: CsrMatrix, rank: number, options: RandomizedSvdOptions): TruncatedSvd {
  const k = Math.min(rank, a.columns, a.rows);
  const l = Math.min(k + options.oversample, a.columns, a.rows);
  const { rows, columns, rowStart, columnIndex, values } = a;
  let q: Float32Array = new Float32Array(columns * l);
  const next = seededRandom(options.seed);
  const omega = new Float32Array(l);
  for (let r = 0; r < rows; r++) {
    for (let j = 0; j < l; j++) omega[j] = next() < 0.5 ? -1 : 1;
    for (let p = rowStart[r]!; p < rowStart[r + 1]!; p++) {
      const base = columnIndex[p]! * l;
      const v = values[p]!;
      for (let j = 0; j < l; j++) q[base + j] = q[base + j]! + v * omega[j]!;
    }
  }
  orthonormalizeColumns(q, columns, l);
  for (let i = 0; i < options.powerIterations; i++) {
    q = transposeTimes(a, times(a, q, l), l);
    orthonormalizeColumns(q, columns, l);
  }
  // Small problem: B = A Q, BᵀB = W Σ² Wᵀ.
  const g = gram(times(a, q, l), rows, l);
  const m = new Matrix(l, l);
  for (let i = 0; i < l; i++) for (let j = 0; j < l; j++) m.set(i, j, g[i * l + j]!);
  const eig = new EigenvalueDecomposition(m, { assumeSymmetric: true });
  const lambda = eig.realEigenvalues;
  const order = lambda
    .map((_, i) => i)
    .sort((x, y) => lambda[y]! - lambda[x]!)
    .slice(0, k);
  const w = new Float64Array(l * k);
  const singularValues = new Float64Array(k);
  order.forEach((source, target) => {
    singularValues[target] = Math.sqrt(Math.max(0, lambda[source]!));
    for (let i = 0; i < l; i++) w[i * k + target] = eig.eigenvectorMatrix.get(i, source);
  });
  // V = Q W (columns × k).
  const vectors = new Float32Array(columns * k);
  const acc = new Float64Array(k);
  for (let c = 0; c < columns; c++) {
    acc.fill(0);
    const base = c * l;
    for (let i = 0; i < l; i++) {
      const qi = q[base + i]!;
      if (qi === 0) continue;
      const wi = i * k;
      for (let j = 0; j < k; j++) acc[j] = acc[j]! + qi * w[wi + j]!;
    }
    vectors.set(acc, c * k);
  }
  return { rank: k, vectors, singularValues };
}
