import type { Table } from '@lancedb/lancedb';
import { lancedb } from './lancedb.ts';

/**
 * `flat` = no ANN index (exact scan); the others are LanceDB index types. `auto` decides by row count
 * and never picks `ivf_rq` (4-bit codes: half the search time of IVF_FLAT at 10^6 rows, a little
 * less recall, not measured below that).
 */
export type VectorIndexChoice = 'auto' | 'flat' | 'ivf_flat' | 'ivf_rq' | 'ivf_hnsw_sq' | 'ivf_pq';

/**
 * Below this many rows an exact scan is fast enough that an ANN index only costs build time and
 * recall (see the package README for the measurements behind it).
 */
export const flatSearchMaxRows = 50_000;

/**
 * Bits per dimension of `ivf_rq` (LanceDB's RaBitQ codes). At 10^6 rows 1 bit kept a third of the exact
 * top-100 of a filtered search; 4 bits keep about as much as IVF_FLAT (docs/scaling.md, 2026-11-26).
 */
export const rqBits = 4;

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
  // A quarter of LanceDB's k-means sample, a third of its iterations: the build is a fifth of a large ingest
  // otherwise, and the partitions serve a probe of many (see `nprobes`) either way.
  const ivf = { distanceType: 'cosine', numPartitions, sampleRate: 64, maxIterations: 15 } as const;
  const config =
    kind === 'ivf_flat'
      ? lancedb.Index.ivfFlat(ivf)
      : kind === 'ivf_rq'
        ? lancedb.Index.ivfRq({ ...ivf, numBits: rqBits })
        : kind === 'ivf_hnsw_sq'
          ? lancedb.Index.hnswSq({ distanceType: 'cosine' })
          : lancedb.Index.ivfPq({ distanceType: 'cosine', numPartitions });
  await table.createIndex(column, { config, replace: true });
  return kind;
}
