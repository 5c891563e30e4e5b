import type { Connection, Table } from '@lancedb/lancedb';
import { toWeftError, WeftError } from '@weft/kit';
import type { IndexHit, VectorIndexV1, VectorSearchOptions } from '@weft/spec';
import { DataType } from 'apache-arrow';
import { lanceWhere } from './lance-filter.ts';
import { mapConcurrent } from './map-concurrent.ts';
import { defaultNodeTable, openLanceVectorTable } from './lance-node-table.ts';

export interface LanceVectorIndexOpenOptions {
  readonly table?: string;
  /** The vector column; `vector` by default. */
  readonly column?: string;
  /** The embedder the stored vectors came from (recorded by whoever built the table). */
  readonly embedderId: string;
  /** LanceDB's object-store settings, for a table at an `s3://…` URI. */
  readonly storageOptions?: Readonly<Record<string, string>>;
  /**
   * IVF partitions probed per query without a filter (more = better recall, slower; default 96).
   * On WordNet (343 partitions, local embedder): 24 → recall@10 0.75, 4 ms; 96 → 0.84, 13 ms;
   * 160 → 0.91, 14 ms; all → 1.00, 26 ms.
   */
  readonly nprobes?: number;
  /**
   * How many more partitions a filtered search probes than an unfiltered one, per filtered row:
   * at most ⌈`filterProbeFactor` × `nprobes` / share⌉ partitions, share being the part of the rows the
   * filter keeps (1 → the probed partitions hold as many matching rows, on average, as `nprobes`
   * partitions hold rows; `Infinity` → every partition). Default `defaultFilterProbeFactor`.
   */
  readonly filterProbeFactor?: number;
  /** Searches every row without the ANN index (ground truth for recall checks). */
  readonly exact?: boolean;
  /** HNSW candidate list size. */
  readonly ef?: number;
  /** An explicit id set at most this large is searched exactly (the filtered rows are few). */
  readonly exactIdFilterMax?: number;
}

export const defaultNprobes = 96;
export const defaultEf = 100;
export const defaultFilterProbeFactor = 2;

/**
 * The most IVF partitions a filtered search probes: `nprobes` scaled up by the share of rows the filter
 * drops, so that the probed partitions hold about `factor` × as many matching rows as an unfiltered
 * search's `nprobes` partitions hold rows. A selective filter (share ≤ factor × nprobes / partitions)
 * opens every partition, as before; a broad one (most rows kept) stays close to `nprobes`.
 */
export function filteredMaxNprobes(
  nprobes: number,
  matchingRows: number,
  rows: number,
  factor: number,
): number {
  if (!(factor < Infinity) || matchingRows <= 0 || rows <= 0) return 1 << 20;
  const share = Math.min(1, matchingRows / rows);
  return Math.max(nprobes, Math.min(1 << 20, Math.ceil((factor * nprobes) / share)));
}

/**
 * Cosine-similarity search over one vector column of a table written by `writeLanceNodes` (its vector
 * table, or the node table itself in tables written before there was one), through its ANN index
 * when it has one; rows added by an update and not yet merged into that index are searched exactly. Filters apply before ranking; with an ANN index, partitions beyond
 * `nprobes` are probed only under a filter, as many more as the filter is selective (see
 * `filteredMaxNprobes`): LanceDB (0.39) probes every partition up to the maximum whenever a filter
 * applies, even when the first `nprobes` already gave `limit` results, so an open maximum made every
 * filtered search scan the whole index (on the 10^6-node synthetic store: 1 s and +0.9 GiB the first
 * time, 110 ms warm). The filter is a prefilter (LanceDB's default): a selective one still gives
 * `limit` results.
 */
export class LanceVectorIndex implements VectorIndexV1 {
  readonly specificationVersion = 'v1';
  readonly provider = 'lancedb';
  readonly maxQueriesPerCall = 64;
  readonly dimensions: number;
  readonly embedderId: string;
  private readonly db: Connection;
  private readonly table: Table;
  private readonly column: string;
  private readonly nprobes: number;
  private readonly ef: number;
  private readonly exactIdFilterMax: number;
  private readonly filterProbeFactor: number;
  private readonly exact: boolean;
  private hasAnnIndex?: Promise<boolean>;
  /**
   * Rows in the table and per node type, counted when a filtered search first needs them (a count
   * gone stale after an update only moves the probe cap a little).
   */
  private rowCount?: Promise<number>;
  private readonly typeRowCounts = new Map<string, Promise<number>>();

  private constructor(
    db: Connection,
    table: Table,
    column: string,
    dimensions: number,
    options: LanceVectorIndexOpenOptions,
  ) {
    this.db = db;
    this.table = table;
    this.column = column;
    this.dimensions = dimensions;
    this.embedderId = options.embedderId;
    this.nprobes = options.nprobes ?? defaultNprobes;
    this.ef = options.ef ?? defaultEf;
    this.exactIdFilterMax = options.exactIdFilterMax ?? 20_000;
    this.filterProbeFactor = options.filterProbeFactor ?? defaultFilterProbeFactor;
    this.exact = options.exact ?? false;
  }

  static async open(directory: string, options: LanceVectorIndexOpenOptions): Promise<LanceVectorIndex> {
    const { db, table } = await openLanceVectorTable(
      directory,
      options.table ?? defaultNodeTable,
      options.storageOptions,
    );
    const column = options.column ?? 'vector';
    const field = (await table.schema()).fields.find((f) => f.name === column);
    // LanceDB may hand back types from its own copy of apache-arrow, so test the type id, not the class.
    if (!field || !DataType.isFixedSizeList(field.type)) {
      table.close();
      db.close();
      throw new WeftError({
        code: 'WEFT_NOT_FOUND',
        message: `table in ${directory} has no vector column ${column}`,
      });
    }
    return new LanceVectorIndex(db, table, column, (field.type as { listSize: number }).listSize, options);
  }

  /** Whether the vector column has an ANN index (a table without one is searched exactly). */
  private annIndexed(): Promise<boolean> {
    this.hasAnnIndex ??= this.table.listIndices().then(
      (indexes) =>
        indexes.some((index) => index.columns.includes(this.column) && /ivf|hnsw|pq/i.test(index.indexType)),
      (error: unknown) => {
        this.hasAnnIndex = undefined;
        throw error;
      },
    );
    return this.hasAnnIndex;
  }

  /**
   * The most partitions a filtered search probes: counts the rows the filter keeps, at most (per node
   * type, once each, through the type's bitmap index; ids by their number).
   */
  private async filteredMaxNprobes(filter: VectorSearchOptions['filter']): Promise<number> {
    if (!(this.filterProbeFactor < Infinity) || !(await this.annIndexed())) return 1 << 20;
    this.rowCount ??= this.table.countRows().catch((error: unknown) => {
      this.rowCount = undefined;
      throw error;
    });
    const rows = await this.rowCount;
    let matching = rows;
    if (filter?.nodeTypes) {
      let typed = 0;
      for (const type of new Set(filter.nodeTypes)) {
        let count = this.typeRowCounts.get(type);
        if (!count) {
          count = this.table.countRows(lanceWhere({ nodeTypes: [type] })).catch((error: unknown) => {
            this.typeRowCounts.delete(type);
            throw error;
          });
          this.typeRowCounts.set(type, count);
        }
        typed += await count;
      }
      matching = Math.min(matching, typed);
    }
    if (filter?.ids) matching = Math.min(matching, new Set(filter.ids).size);
    return filteredMaxNprobes(this.nprobes, matching, rows, this.filterProbeFactor);
  }

  async doSearch(options: VectorSearchOptions): Promise<IndexHit[][]> {
    for (const vector of options.vectors) {
      if (vector.length !== this.dimensions) {
        throw new WeftError({
          code: 'WEFT_BAD_INPUT',
          message: `vector has ${vector.length} dimensions, index has ${this.dimensions}`,
        });
      }
    }
    const where = lanceWhere(options.filter);
    const empty = options.filter?.ids?.length === 0 || options.filter?.nodeTypes?.length === 0;
    const exact =
      this.exact || (options.filter?.ids !== undefined && options.filter.ids.length <= this.exactIdFilterMax);
    let maxNprobes = this.nprobes;
    if (where && !exact && !empty) {
      try {
        maxNprobes = await this.filteredMaxNprobes(options.filter);
      } catch (error) {
        throw toWeftError(error, 'WEFT_STORE_FAILED', 'LanceDB row count failed');
      }
    }
    return mapConcurrent(options.vectors, 4, async (vector) => {
      // A zero vector (e.g. a query with no known word) has no direction: nothing is similar to it.
      if (empty || options.limit <= 0 || vector.every((x) => x === 0)) return [];
      if (options.abortSignal?.aborted)
        throw new WeftError({ code: 'WEFT_ABORTED', message: 'vector search aborted' });
      try {
        let search = this.table
          .vectorSearch(Float32Array.from(vector))
          .column(this.column)
          .distanceType('cosine')
          // `_distance` is selected explicitly: LanceDB warns on every call whose select omits it.
          .select(['id', 'type', '_distance'])
          .limit(options.limit)
          // LanceDB checks minimum ≤ maximum on each call: open the maximum before raising the minimum.
          .maximumNprobes(1 << 20)
          .minimumNprobes(this.nprobes)
          .ef(Math.max(this.ef, options.limit));
        // LanceDB probes up to the maximum whenever it is above the minimum (measured on WordNet without
        // a filter: 20 ms a query instead of 3.5 ms), so the maximum is what a search costs.
        search = search.maximumNprobes(maxNprobes);
        if (where) search = search.where(where);
        if (exact) search = search.bypassVectorIndex();
        const rows = (await search.toArray()) as { id: string; type: string; _distance: number }[];
        return rows.map((row) => ({ id: row.id, type: row.type, score: 1 - row._distance }));
      } catch (error) {
        throw toWeftError(error, 'WEFT_STORE_FAILED', 'LanceDB vector search failed');
      }
    });
  }

  async close(): Promise<void> {
    this.table.close();
    this.db.close();
  }
}
