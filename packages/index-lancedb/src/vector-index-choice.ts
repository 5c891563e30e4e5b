import type { Table } from '@lancedb/lancedb';
import { lancedb } from './lancedb.ts';

/** `flat` = no ANN index (exact scan); the others are LanceDB index types. `auto` decides by row count. */
export type VectorIndexChoice = 'auto' | 'flat' | 'ivf_flat' | 'ivf_hnsw_sq' | 'ivf_pq';

/**
 * Below this many rows an exact scan is fast enough that an ANN index only costs build time and
 * recall (see the package README for the measurements behind it).
 */
export const flatSearchMaxRows = 50_000;

export function chooseVectorIndex(
  rows: number,
  choice: VectorIndexChoice = 'auto',
): Exclude<VectorIndexChoice, 'auto'> {
  if (choice !== 'auto') return choice;
  return rows <= flatSearchMaxRows ? 'flat' : 'ivf_flat';
}

/** IVF partitions: about √rows, the usual balance between centroid and partition scanning. */
export function ivfPartitions(rows: number): number {
  return Math.max(1, Math.round(Math.sqrt(rows)));
}

/** Builds the ANN index of `column` (cosine) and says which was built. */
export async function buildVectorIndex(
  table: Table,
  column: string,
  rows: number,
  choice: VectorIndexChoice,
): Promise<string> {
  const kind = chooseVectorIndex(rows, choice);
  // IVF training needs enough rows per partition; tiny tables stay flat whatever was asked.
  if (kind === 'flat' || rows < 256) return 'flat';
  const numPartitions = ivfPartitions(rows);
  const config =
    kind === 'ivf_flat'
      ? // A quarter of LanceDB's k-means sample, a third of its iterations: the build is a fifth of a large ingest
        // otherwise, and the partitions serve a probe of many (see `nprobes`) either way.
        lancedb.Index.ivfFlat({ distanceType: 'cosine', numPartitions, sampleRate: 64, maxIterations: 15 })
      : kind === 'ivf_hnsw_sq'
        ? lancedb.Index.hnswSq({ distanceType: 'cosine' })
        : lancedb.Index.ivfPq({ distanceType: 'cosine', numPartitions });
  await table.createIndex(column, { config, replace: true });
  return kind;
}
