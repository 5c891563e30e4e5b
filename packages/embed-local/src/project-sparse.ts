import type { SparseVector } from './tfidf-vectorizer.ts';

/** A TF-IDF row projected onto the LSA directions and L2-normalised (zeros when the row is empty). */
export function projectSparse(row: SparseVector, projection: Float32Array, dimensions: number): Float32Array {
  const { indices, values } = row;
  const acc = new Float64Array(dimensions);
  for (let k = 0; k < indices.length; k++) {
    const base = indices[k]! * dimensions;
    const v = values[k]!;
    for (let j = 0; j < dimensions; j++) acc[j] = acc[j]! + v * projection[base + j]!;
  }
  let norm = 0;
  for (let j = 0; j < dimensions; j++) norm += acc[j]! * acc[j]!;
  const out = new Float32Array(dimensions);
  if (norm === 0) return out;
  const scale = 1 / Math.sqrt(norm);
  for (let j = 0; j < dimensions; j++) out[j] = acc[j]! * scale;
  return out;
}
