import type { Table } from '@lancedb/lancedb';
import { Table as ArrowTable, DataType, type FixedSizeList } from 'apache-arrow';
import { existsSync } from 'node:fs';
import { link, mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WeftError } from '@weft/kit';
import { englishAnalyzer } from './english-analyzer.ts';
import {
  createIdIndex,
  type DocumentTermCounts,
  defaultNodeTable,
  documentColumn,
  hasIdIndex,
  type LanceNodeRecord,
  nodeDocument,
  nodeSchema,
  openLanceTable,
  openLanceVectorTable,
  relationsColumn,
  termCountsPath,
  toBatch,
  toVectorBatch,
  type VectorColumn,
  vectorSchema,
} from './lance-node-table.ts';

export interface UpdateLanceNodesOptions {
  /** The LanceDB directory to start from (as `writeLanceNodes` wrote it); never changed. */
  readonly source: string;
  /** A directory that does not exist yet: the changed table goes here. */
  readonly directory: string;
  readonly table?: string;
  /**
   * Rows to write; a row of the same id is replaced. Where the table keeps its vectors apart
   * (`vectorTableName`), a record without `vectors` keeps the vectors its id has (its id must have
   * some); where it keeps them inline, every record carries them.
   */
  readonly upserts: readonly LanceNodeRecord[];
  /** Ids whose rows are removed (unknown ids are ignored). */
  readonly deletions: readonly string[];
  /**
   * How many rows the node table may hold outside its full-text indexes before this update merges
   * them in (default `textMergeRows` of its row count); 0 merges every time.
   */
  readonly textMergeRows?: number;
}

export interface UpdateLanceNodesResult {
  readonly rows: number;
  /**
   * Whether the vector table's new rows were merged into its indexes (`vectorMergeRows`); false when
   * they were left to be searched exactly, or the table keeps its vectors inline.
   */
  readonly vectorsMerged: boolean;
  /**
   * Whether the node table's new rows were merged into its full-text indexes (`textMergeRows`); false
   * when they were left to LanceDB's search of unindexed rows.
   */
  readonly textMerged: boolean;
  /** Seconds per phase. */
  readonly timings: Readonly<Record<string, number>>;
}

/** SQL string literal for a LanceDB filter. */
const sqlString = (value: string) => `'${value.replaceAll("'", "''")}'`;

/** Ids per `IN (…)` filter: long lists are split so that no filter grows without bound. */
const idsPerFilter = 2_000;

function* idFilters(ids: readonly string[]): Generator<string> {
  for (let i = 0; i < ids.length; i += idsPerFilter)
    yield `id IN (${ids
      .slice(i, i + idsPerFilter)
      .map(sqlString)
      .join(', ')})`;
}

/**
 * How many rows a vector table may hold outside its indexes before an update merges them in: a tenth
 * of its rows, at most 10,000. Until then a search scans them exactly beside the ANN index (10,000
 * rows of 256 numbers: ~10 MB), and an update costs what its own rows cost; the merge rewrites the
 * whole IVF index (4–5 s on WordNet's 117,659 rows), once every several updates instead of each.
 */
export function vectorMergeRows(rows: number): number {
  return Math.min(10_000, Math.ceil(rows / 10));
}

/**
 * How many rows a node table may hold outside its full-text indexes before an update merges them in:
 * a hundredth of its rows, at most 10,000. Until then LanceDB searches them by a scan beside the
 * indexes (its flat search of unindexed fragments), scoring them with the indexes' BM25 statistics;
 * the merge (`optimize`: compaction and the rewrite of every index) took 85 s at 10^6 rows. Rows left
 * out move scores a little: the indexes' document counts and frequencies do not count them, and
 * still count the rows deleted since (which only a merge drops) — docs/scaling.md measures it. Tables
 * under 100 rows merge each time, as before.
 */
export function textMergeRows(rows: number): number {
  return Math.min(10_000, Math.floor(rows / 100));
}

/** The most rows any index of `table` leaves out (rows added since the index was built or merged). */
async function unindexedRows(table: Table): Promise<number> {
  let most = 0;
  for (const index of await table.listIndices()) {
    const stats = await table.indexStats(index.name);
    most = Math.max(most, stats?.numUnindexedRows ?? 0);
  }
  return most;
}

/**
 * Copies a LanceDB directory by hard links: Lance never rewrites a file in place (every commit adds
 * files and a new manifest), so the copy shares the data of the source and a change to it leaves the
 * source as it was. Only the term counts file, which Weft rewrites, is replaced by a new file.
 */
async function linkTree(source: string, target: string): Promise<void> {
  await mkdir(target, { recursive: true });
  for (const entry of await readdir(source, { withFileTypes: true })) {
    const from = join(source, entry.name);
    const to = join(target, entry.name);
    if (entry.isDirectory()) await linkTree(from, to);
    else if (entry.isFile()) await link(from, to);
  }
}

/** The vector columns of a table's schema (LanceDB's Arrow classes may be another copy than ours: no instanceof). */
function vectorColumnsOf(schema: { fields: readonly { name: string; type: unknown }[] }): VectorColumn[] {
  return schema.fields
    .filter((field) => DataType.isFixedSizeList(field.type as DataType))
    .map((field) => ({ name: field.name, dimensions: (field.type as FixedSizeList).listSize }));
}

/**
 * The rows of these ids as records, in no particular order; ids without a row are left out. Lets a
 * caller rewrite a row's relation text without embedding its document again: the records carry the
 * vectors of a table that keeps them inline, and none where they are kept apart (there an upsert
 * without vectors keeps them).
 */
export async function readLanceNodes(
  directory: string,
  ids: readonly string[],
  table = defaultNodeTable,
): Promise<LanceNodeRecord[]> {
  if (ids.length === 0) return [];
  const opened = await openLanceTable(directory, table);
  try {
    const vectorColumns = vectorColumnsOf(await opened.table.schema());
    const records: LanceNodeRecord[] = [];
    for (const where of idFilters(ids)) {
      const rows = (await opened.table.query().where(where).toArray()) as Record<string, unknown>[];
      for (const row of rows) {
        const aliases = String(row.aliases ?? '');
        const relations = row[relationsColumn];
        records.push({
          id: String(row.id),
          type: String(row.type),
          name: String(row.name),
          ...(aliases.length > 0 ? { aliases: aliases.split('\n') } : {}),
          text: String(row.text),
          ...(typeof relations === 'string' ? { relations } : {}),
          ...(vectorColumns.length > 0
            ? {
                vectors: Object.fromEntries(
                  vectorColumns.map((column) => [
                    column.name,
                    Float32Array.from(row[column.name] as Iterable<number>),
                  ]),
                ),
              }
            : {}),
        });
      }
    }
    return records;
  } finally {
    opened.table.close();
    opened.db.close();
  }
}

/**
 * Writes a changed copy of a node table written by `writeLanceNodes`: the rows of `deletions` and of
 * the upserted ids are deleted and the upserts added, and the term counts are adjusted (the id index
 * is built first where the source has none). The indexes take the new rows in only past a threshold:
 * the full-text indexes past `textMergeRows` (until then LanceDB scans the new rows beside them), a
 * separate vector table's past `vectorMergeRows` (its new rows are searched exactly until then).
 * `source` is never changed.
 */
export async function updateLanceNodes(options: UpdateLanceNodesOptions): Promise<UpdateLanceNodesResult> {
  const tableName = options.table ?? defaultNodeTable;
  const timings: Record<string, number> = {};
  let started = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    timings[name] = Math.round(now - started) / 1000;
    started = now;
  };
  if (existsSync(options.directory))
    throw new WeftError({
      code: 'WEFT_BAD_INPUT',
      message: `${options.directory} exists; an update writes a new LanceDB directory`,
    });
  await linkTree(options.source, options.directory);
  lap('link');
  const { db, table } = await openLanceTable(options.directory, tableName);
  let apart: Awaited<ReturnType<typeof openLanceVectorTable>> | undefined;
  try {
    apart = await openLanceVectorTable(options.directory, tableName);
    if (!apart.separate) {
      // Vectors inline (or none): the node table is all there is.
      apart.table.close();
      apart.db.close();
      apart = undefined;
    }
    const vectors = apart?.table;
    const arrowSchema = await table.schema();
    const vectorColumns = vectorColumnsOf(arrowSchema);
    const relationFields = arrowSchema.fields.some((field) => field.name === relationsColumn);
    const countsFile = termCountsPath(options.directory, tableName);
    const counts = existsSync(countsFile)
      ? (JSON.parse(await readFile(countsFile, 'utf8')) as DocumentTermCounts)
      : undefined;
    const frequencies = new Map(Object.entries(counts?.frequencies ?? {}));
    let documents = counts?.documents ?? 0;
    const tally = (document: string, sign: 1 | -1) => {
      const terms = new Set(englishAnalyzer(document));
      if (terms.size > 0) documents += sign;
      for (const term of terms) {
        const next = (frequencies.get(term) ?? 0) + sign;
        if (next > 0) frequencies.set(term, next);
        else frequencies.delete(term);
      }
    };

    const vectorsMerged = vectors ? await updateVectorTable(vectors, options, lap) : false;
    // Tables written before the id index existed get it here, on a copy that is being written
    // anyway (a query never writes: stores may be opened read-only); the deletes below use it.
    if (!(await hasIdIndex(table))) await createIdIndex(table);
    lap('id-index');
    const removed = [...new Set([...options.deletions, ...options.upserts.map((node) => node.id)])];
    for (const where of idFilters(removed)) {
      const rows = (await table.query().where(where).select(['id', documentColumn]).toArray()) as {
        doc: string;
      }[];
      for (const row of rows) tally(String(row[documentColumn as 'doc']), -1);
      await table.delete(where);
    }
    lap('delete');
    if (options.upserts.length > 0) {
      const schema = nodeSchema(vectorColumns, relationFields);
      for (const node of options.upserts) tally(nodeDocument(node), 1);
      await table.add(
        new ArrowTable(schema, [toBatch(schema, options.upserts, vectorColumns, relationFields)]),
      );
    }
    lap('add');
    const rows = await table.countRows();
    // Merges the new rows into the full-text (and inline ANN) indexes, and compacts, once enough are
    // left out. Until then LanceDB finds them by a scan, scored with the indexes' BM25 statistics,
    // which do not count them: scores move a little (docs/scaling.md). On the small tables of the
    // update equivalence tests every update merges, and rankings equal a table written from scratch.
    // A change set that touches no row skips it: optimize rewrites the IVF index even then, which moved
    // a WordNet default ranking at rank 99 (an empty update is how an older store gets the id index).
    const textMerged =
      (removed.length > 0 || options.upserts.length > 0) &&
      (await unindexedRows(table)) > (options.textMergeRows ?? textMergeRows(rows));
    if (textMerged) await table.optimize({ cleanupOlderThan: new Date() });
    lap('optimize');
    const next: DocumentTermCounts = { documents, frequencies: Object.fromEntries(frequencies) };
    // A new file renamed over the linked one: writing through the link would change the source's too.
    await writeFile(`${countsFile}.next`, JSON.stringify(next));
    await rename(`${countsFile}.next`, countsFile);
    return { rows, vectorsMerged, textMerged, timings };
  } catch (error) {
    if (error instanceof WeftError) throw error;
    throw new WeftError({
      code: 'WEFT_STORE_FAILED',
      message: `updating LanceDB table ${tableName} in ${options.directory} failed: ${String(error)}`,
      cause: error,
    });
  } finally {
    table.close();
    db.close();
    apart?.table.close();
    apart?.db.close();
  }
}

/**
 * The vector table's part of an update: the rows of deleted ids and of upserts that carry vectors
 * go, those upserts' vectors come in; the indexes take them in only past `vectorMergeRows`.
 * Says whether they did.
 */
async function updateVectorTable(
  vectors: Table,
  options: UpdateLanceNodesOptions,
  lap: (name: string) => void,
): Promise<boolean> {
  const embedded = options.upserts.filter((node) => node.vectors !== undefined);
  const keeping = options.upserts.filter((node) => node.vectors === undefined).map((node) => node.id);
  let found = 0;
  for (const where of idFilters(keeping)) found += await vectors.countRows(where);
  if (found < new Set(keeping).size)
    throw new WeftError({
      code: 'WEFT_BAD_INPUT',
      message: `${new Set(keeping).size - found} upserted row(s) carry no vectors and have none to keep`,
    });
  if (!(await hasIdIndex(vectors))) await createIdIndex(vectors);
  const removed = [...new Set([...options.deletions, ...embedded.map((node) => node.id)])];
  for (const where of idFilters(removed)) await vectors.delete(where);
  lap('vectors:delete');
  if (embedded.length > 0) {
    const columns = vectorColumnsOf(await vectors.schema());
    const schema = vectorSchema(columns);
    await vectors.add(new ArrowTable(schema, [toVectorBatch(schema, embedded, columns)]));
  }
  lap('vectors:add');
  if (removed.length === 0) return false;
  const merge = (await unindexedRows(vectors)) > vectorMergeRows(await vectors.countRows());
  if (merge) await vectors.optimize({ cleanupOlderThan: new Date() });
  lap('vectors:optimize');
  return merge;
}
