import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { writeLanceNodes } from '../lance-node-table.ts';
import type { VectorIndexChoice } from '../vector-index-choice.ts';

/** A seeded generator (mulberry32), so a table is the same on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A node table of 4,096 random vectors (64 IVF partitions) in a new temp directory: `rare` holds 40
 * rows (1 %), `common` the rest — a selective filter's case. Returns the directory and 8 query vectors.
 */
export async function writeTwoTypeVectors(options: {
  readonly prefix: string;
  readonly dimensions: number;
  readonly vectorIndex: VectorIndexChoice;
}): Promise<{ directory: string; queries: number[][]; built: string }> {
  const rows = 4096;
  const next = random(21);
  const vector = () => Array.from({ length: options.dimensions }, () => next() * 2 - 1);
  const queries = Array.from({ length: 8 }, vector);
  const directory = await mkdtemp(path.join(os.tmpdir(), options.prefix));
  const written = await writeLanceNodes({
    directory,
    nodes: Array.from({ length: rows }, (_, i) => ({
      id: `n${i}`,
      type: i % 100 === 0 && i < 4000 ? 'rare' : 'common',
      name: `n${i}`,
      text: '',
      vectors: { vector: vector() },
    })),
    vectorColumns: [{ name: 'vector', dimensions: options.dimensions }],
    vectorIndex: options.vectorIndex,
  });
  return { directory, queries, built: String(written.vectorIndexes.vector) };
}
