import {
  Field,
  FixedSizeList,
  Float32,
  makeData,
  RecordBatch,
  Schema,
  Struct,
  Table as ArrowTable,
  Utf8,
  vectorFromArray,
} from 'apache-arrow';
import type { Connection, Table } from '@lancedb/lancedb';
import { WeftError } from '@weft/core';
import { lancedb } from './lancedb.ts';
import { buildVectorIndex, type VectorIndexChoice } from './vector-index-choice.ts';

/** The default table name inside a store's LanceDB directory. */
export const defaultNodeTable = 'nodes';
/** The column holding name + aliases + text, which the BM25 index covers. */
export const documentColumn = 'doc';

/** One node as written to LanceDB. `vectors` holds one embedding per vector column. */
export interface LanceNodeRecord {
  readonly id: string;
  readonly type: string;
  readonly name: string;
  readonly aliases?: readonly string[];
  readonly text: string;
  readonly vectors?: Readonly<Record<string, ArrayLike<number>>>;
}

export interface VectorColumn {
  readonly name: string;
  readonly dimensions: number;
}

export interface WriteLanceNodesOptions {
  /** LanceDB directory (created if missing). */
  readonly directory: string;
  readonly table?: string;
  readonly nodes: AsyncIterable<LanceNodeRecord> | Iterable<LanceNodeRecord>;
  /** Embedding columns; every record must carry a vector for each. */
  readonly vectorColumns?: readonly VectorColumn[];
  /** Rows per Arrow batch. */
  readonly batchSize?: number;
  /** ANN index type per vector column; `'auto'` picks by row count (see `chooseVectorIndex`). */
  readonly vectorIndex?: VectorIndexChoice;
  readonly onProgress?: (phase: string, done: number) => void;
}

export interface WriteLanceNodesResult {
  readonly rows: number;
  readonly table: string;
  /** The ANN index built on each vector column, `flat` when none. */
  readonly vectorIndexes: Readonly<Record<string, string>>;
}

/** The document text BM25 ranks: name, aliases and text. */
export function nodeDocument(node: {
  readonly name: string;
  readonly aliases?: readonly string[];
  readonly text: string;
}): string {
  return [node.name, ...(node.aliases ?? []), node.text].filter((part) => part.length > 0).join(' ; ');
}

function nodeSchema(vectorColumns: readonly VectorColumn[]): Schema {
  return new Schema([
    new Field('id', new Utf8(), false),
    new Field('type', new Utf8(), false),
    new Field('name', new Utf8(), false),
    new Field('aliases', new Utf8(), false),
    new Field('text', new Utf8(), false),
    new Field(documentColumn, new Utf8(), false),
    ...vectorColumns.map(
      (c) =>
        new Field(c.name, new FixedSizeList(c.dimensions, new Field('item', new Float32(), true)), false),
    ),
  ]);
}

function toBatch(
  schema: Schema,
  rows: readonly LanceNodeRecord[],
  vectorColumns: readonly VectorColumn[],
): RecordBatch {
  const strings = (values: string[]) => vectorFromArray(values, new Utf8()).data[0]!;
  const children = [
    strings(rows.map((r) => r.id)),
    strings(rows.map((r) => r.type)),
    strings(rows.map((r) => r.name)),
    // Aliases are stored joined by newlines: one string column keeps the table flat and readable.
    strings(rows.map((r) => (r.aliases ?? []).join('\n'))),
    strings(rows.map((r) => r.text)),
    strings(rows.map((r) => nodeDocument(r))),
    ...vectorColumns.map((column, c) => {
      const flat = new Float32Array(rows.length * column.dimensions);
      rows.forEach((row, i) => {
        const vector = row.vectors?.[column.name];
        if (!vector || vector.length !== column.dimensions) {
          throw new WeftError({
            code: 'WEFT_BAD_INPUT',
            message: `node ${row.id}: vector column ${column.name} needs ${column.dimensions} numbers, got ${vector?.length ?? 'none'}`,
          });
        }
        flat.set(vector, i * column.dimensions);
      });
      const type = schema.fields[6 + c]!.type as FixedSizeList<Float32>;
      const child = makeData({ type: new Float32(), length: flat.length, data: flat });
      return makeData({ type, length: rows.length, nullCount: 0, child });
    }),
  ];
  const struct = makeData({ type: new Struct(schema.fields), length: rows.length, nullCount: 0, children });
  return new RecordBatch(schema, struct);
}

/**
 * Writes nodes to one LanceDB table in Arrow batches (streamed: memory stays at one batch), then
 * builds the BM25 index over name + aliases + text, a bitmap index on `type`, and the ANN index of
 * each vector column.
 */
export async function writeLanceNodes(options: WriteLanceNodesOptions): Promise<WriteLanceNodesResult> {
  const vectorColumns = options.vectorColumns ?? [];
  const tableName = options.table ?? defaultNodeTable;
  const batchSize = options.batchSize ?? 8192;
  const schema = nodeSchema(vectorColumns);
  const db = await lancedb.connect(options.directory);
  let table: Table | undefined;
  try {
    table = await db.createEmptyTable(tableName, schema, { mode: 'overwrite' });
    let rows = 0;
    let pending: LanceNodeRecord[] = [];
    const flush = async () => {
      if (pending.length === 0) return;
      await table!.add(new ArrowTable(schema, [toBatch(schema, pending, vectorColumns)]));
      rows += pending.length;
      pending = [];
      options.onProgress?.('write', rows);
    };
    for await (const node of options.nodes) {
      pending.push(node);
      if (pending.length >= batchSize) await flush();
    }
    await flush();
    // One compacted fragment set makes the later index builds and scans cheaper than many small appends.
    if (rows > 0) await table.optimize({ cleanupOlderThan: new Date() });
    options.onProgress?.('text-index', rows);
    await table.createIndex(documentColumn, {
      config: lancedb.Index.fts({
        withPosition: false,
        baseTokenizer: 'simple',
        stem: true,
        removeStopWords: true,
        asciiFolding: true,
      }),
    });
    if (rows > 0) await table.createIndex('type', { config: lancedb.Index.bitmap() });
    const vectorIndexes: Record<string, string> = {};
    for (const column of vectorColumns) {
      options.onProgress?.(`vector-index:${column.name}`, rows);
      vectorIndexes[column.name] = await buildVectorIndex(
        table,
        column.name,
        rows,
        options.vectorIndex ?? 'auto',
      );
    }
    return { rows, table: tableName, vectorIndexes };
  } catch (error) {
    if (error instanceof WeftError) throw error;
    throw new WeftError({
      code: 'WEFT_STORE_FAILED',
      message: `writing LanceDB table ${tableName} in ${options.directory} failed: ${String(error)}`,
      cause: error,
    });
  } finally {
    table?.close();
    db.close();
  }
}

/** Opens a table written by `writeLanceNodes`, turning a missing one into WEFT_NOT_FOUND. */
export async function openLanceTable(
  directory: string,
  table = defaultNodeTable,
): Promise<{ db: Connection; table: Table }> {
  const db = await lancedb.connect(directory);
  try {
    return { db, table: await db.openTable(table) };
  } catch (error) {
    db.close();
    throw new WeftError({
      code: 'WEFT_NOT_FOUND',
      message: `no LanceDB table ${table} in ${directory}`,
      cause: error,
    });
  }
}
