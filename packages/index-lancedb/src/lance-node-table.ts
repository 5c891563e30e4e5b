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
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Connection, Table } from '@lancedb/lancedb';
import { WeftError } from '@weft/kit';
import { englishAnalyzer } from './english-analyzer.ts';
import { lancedb } from './lancedb.ts';
import { buildVectorIndex, type VectorIndexChoice } from './vector-index-choice.ts';

/** The default table name inside a store's LanceDB directory. */
export const defaultNodeTable = 'nodes';

/**
 * The table that holds the embeddings of a node table's rows (`id`, `type` and the vector columns),
 * apart from their text: an update then merges the new rows into the full-text indexes (which its
 * rankings need) without rewriting the ANN index, whose merge LanceDB's `optimize` would otherwise do
 * too (4–5 s of a 1,100-row update on WordNet). Tables written before it carry their vectors inline.
 */
export function vectorTableName(table: string): string {
  return `${table}_vectors`;
}
/** The column holding name + aliases + text, which the BM25 index covers. */
export const documentColumn = 'doc';
/** The column holding a node's relation text (its neighbours' names by relation), BM25-indexed. */
export const relationsColumn = 'relations';
/** Document and relation text together: one BM25 field over both (a relation-aware document). */
export const combinedColumn = 'combined';

/**
 * The text fields of a node table, as `TextIndexV2` names them, with the column each is stored in.
 * `relations` and `combined` exist in tables written with relation text.
 */
export const textFieldColumns = {
  document: documentColumn,
  relations: relationsColumn,
  combined: combinedColumn,
} as const;
export type TextFieldName = keyof typeof textFieldColumns;

export const textFieldDescriptions: Readonly<Record<TextFieldName, string>> = {
  document: "the node's own document: name, aliases and text",
  relations: "the names of the node's graph neighbours, grouped by relation (edge type and direction)",
  combined: 'document and relations as one field: a relation-aware document',
};

/** One node as written to LanceDB. `vectors` holds one embedding per vector column. */
export interface LanceNodeRecord {
  readonly id: string;
  readonly type: string;
  readonly name: string;
  readonly aliases?: readonly string[];
  readonly text: string;
  /** The node's relation text (see `relationsColumn`); empty or absent for nodes without one. */
  readonly relations?: string;
  readonly vectors?: Readonly<Record<string, ArrayLike<number>>>;
}

export interface VectorColumn {
  readonly name: string;
  readonly dimensions: number;
}

export interface WriteLanceNodesOptions {
  /** LanceDB directory (created if missing), or an object-store URI such as `s3://bucket/prefix`. */
  readonly directory: string;
  /** LanceDB's object-store settings (`endpoint`, `region`, `allow_http`, keys, …). */
  readonly storageOptions?: Readonly<Record<string, string>>;
  /** A local folder for the term counts file (default `directory`, which must then be local). */
  readonly termCountsDirectory?: string;
  readonly table?: string;
  readonly nodes: AsyncIterable<LanceNodeRecord> | Iterable<LanceNodeRecord>;
  /** Embedding columns; every record must carry a vector for each. */
  readonly vectorColumns?: readonly VectorColumn[];
  /** Rows per Arrow batch. */
  readonly batchSize?: number;
  /** ANN index type per vector column; `'auto'` picks by row count (see `chooseVectorIndex`). */
  readonly vectorIndex?: VectorIndexChoice;
  /**
   * Write and index the `relations` and `combined` columns (default false: the document field only).
   * Records then carry their relation text in `relations`.
   */
  readonly relationFields?: boolean;
  readonly onProgress?: (phase: string, done: number) => void;
}

/** Document frequencies of the `document` field, as `englishAnalyzer` splits it. */
export interface DocumentTermCounts {
  readonly documents: number;
  readonly frequencies: Readonly<Record<string, number>>;
}

/** Where the term counts of a table are kept: a JSON file beside its LanceDB data. */
export function termCountsPath(directory: string, table: string): string {
  return join(directory, `${table}.terms.json`);
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

/** The Arrow schema of a node table with these vector columns (and relation fields or not). */
export function nodeSchema(vectorColumns: readonly VectorColumn[], relationFields: boolean): Schema {
  return new Schema([
    new Field('id', new Utf8(), false),
    new Field('type', new Utf8(), false),
    new Field('name', new Utf8(), false),
    new Field('aliases', new Utf8(), false),
    new Field('text', new Utf8(), false),
    new Field(documentColumn, new Utf8(), false),
    ...(relationFields
      ? [new Field(relationsColumn, new Utf8(), false), new Field(combinedColumn, new Utf8(), false)]
      : []),
    ...vectorColumns.map(
      (c) =>
        new Field(c.name, new FixedSizeList(c.dimensions, new Field('item', new Float32(), true)), false),
    ),
  ]);
}

/** The Arrow schema of a vector table (see `vectorTableName`): `id`, `type` and the vector columns. */
export function vectorSchema(vectorColumns: readonly VectorColumn[]): Schema {
  return new Schema([
    new Field('id', new Utf8(), false),
    new Field('type', new Utf8(), false),
    ...vectorColumns.map(
      (c) =>
        new Field(c.name, new FixedSizeList(c.dimensions, new Field('item', new Float32(), true)), false),
    ),
  ]);
}

const strings = (values: string[]) => vectorFromArray(values, new Utf8()).data[0]!;

/** The vector columns of `rows` as Arrow data, the first of them at field `firstVector` of `schema`. */
function vectorData(
  schema: Schema,
  rows: readonly LanceNodeRecord[],
  vectorColumns: readonly VectorColumn[],
  firstVector: number,
) {
  return vectorColumns.map((column, c) => {
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
    const type = schema.fields[firstVector + c]!.type as FixedSizeList<Float32>;
    const child = makeData({ type: new Float32(), length: flat.length, data: flat });
    return makeData({ type, length: rows.length, nullCount: 0, child });
  });
}

/** The embeddings of node records as one Arrow batch of a vector table's `schema` (see `vectorSchema`). */
export function toVectorBatch(
  schema: Schema,
  rows: readonly LanceNodeRecord[],
  vectorColumns: readonly VectorColumn[],
): RecordBatch {
  const children = [
    strings(rows.map((r) => r.id)),
    strings(rows.map((r) => r.type)),
    ...vectorData(schema, rows, vectorColumns, 2),
  ];
  const struct = makeData({ type: new Struct(schema.fields), length: rows.length, nullCount: 0, children });
  return new RecordBatch(schema, struct);
}

/** Node records as one Arrow batch of `schema` (see `nodeSchema`). */
export function toBatch(
  schema: Schema,
  rows: readonly LanceNodeRecord[],
  vectorColumns: readonly VectorColumn[],
  relationFields: boolean,
): RecordBatch {
  const documents = rows.map((r) => nodeDocument(r));
  const relationText = relationFields
    ? [
        strings(rows.map((r) => r.relations ?? '')),
        strings(rows.map((r, i) => (r.relations ? `${documents[i]} ; ${r.relations}` : documents[i]!))),
      ]
    : [];
  const firstVector = 6 + relationText.length;
  const children = [
    strings(rows.map((r) => r.id)),
    strings(rows.map((r) => r.type)),
    strings(rows.map((r) => r.name)),
    // Aliases are stored joined by newlines: one string column keeps the table flat and readable.
    strings(rows.map((r) => (r.aliases ?? []).join('\n'))),
    strings(rows.map((r) => r.text)),
    strings(documents),
    ...relationText,
    ...vectorData(schema, rows, vectorColumns, firstVector),
  ];
  const struct = makeData({ type: new Struct(schema.fields), length: rows.length, nullCount: 0, children });
  return new RecordBatch(schema, struct);
}

/**
 * Builds the BTREE index on `id`. Searches restricted to a set of ids (`id IN (…)`: the candidate
 * re-scoring of the stacks, and the deletes and read-backs of an update) then look the ids up instead
 * of scanning the column; rankings are the same.
 */
export async function createIdIndex(table: Table): Promise<void> {
  await table.createIndex('id', { config: lancedb.Index.btree() });
}

/** Whether the table has an index on `id` (tables written before it was built have none). */
export async function hasIdIndex(table: Table): Promise<boolean> {
  return (await table.listIndices()).some((index) => index.columns.length === 1 && index.columns[0] === 'id');
}

/**
 * Writes nodes to LanceDB in Arrow batches (streamed: memory stays at one batch): their text to one
 * table, with the BM25 index over name + aliases + text, a bitmap index on `type` and a BTREE index
 * on `id`; their embeddings, when there are vector columns, to a second (`vectorTableName`) with the
 * ANN index of each vector column and the same `type` and `id` indexes.
 */
export async function writeLanceNodes(options: WriteLanceNodesOptions): Promise<WriteLanceNodesResult> {
  const vectorColumns = options.vectorColumns ?? [];
  const tableName = options.table ?? defaultNodeTable;
  const batchSize = options.batchSize ?? 8192;
  const relationFields = options.relationFields ?? false;
  const schema = nodeSchema([], relationFields);
  const vectorsSchema = vectorColumns.length > 0 ? vectorSchema(vectorColumns) : undefined;
  const db = await connectLance(options.directory, options.storageOptions);
  let table: Table | undefined;
  let vectors: Table | undefined;
  try {
    table = await db.createEmptyTable(tableName, schema, { mode: 'overwrite' });
    if (vectorsSchema) {
      vectors = await db.createEmptyTable(vectorTableName(tableName), vectorsSchema, { mode: 'overwrite' });
    } else {
      // An earlier write's vectors would otherwise be taken for this one's.
      await db.dropTable(vectorTableName(tableName)).catch((error: unknown) => {
        if (!isMissingTable(error)) throw error;
      });
    }
    let rows = 0;
    let pending: LanceNodeRecord[] = [];
    const frequencies = new Map<string, number>();
    let documents = 0;
    const count = (node: LanceNodeRecord) => {
      const terms = new Set(englishAnalyzer(nodeDocument(node)));
      if (terms.size > 0) documents++;
      for (const term of terms) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
    };
    const flush = async () => {
      if (pending.length === 0) return;
      for (const node of pending) count(node);
      // The vectors first: a record without them fails before its text is written.
      const vectorBatch = vectorsSchema && toVectorBatch(vectorsSchema, pending, vectorColumns);
      await table!.add(new ArrowTable(schema, [toBatch(schema, pending, [], relationFields)]));
      if (vectorBatch) await vectors!.add(new ArrowTable(vectorsSchema, [vectorBatch]));
      rows += pending.length;
      pending = [];
      options.onProgress?.('write', rows);
    };
    for await (const node of options.nodes) {
      pending.push(node);
      if (pending.length >= batchSize) await flush();
    }
    await flush();
    const counts: DocumentTermCounts = { documents, frequencies: Object.fromEntries(frequencies) };
    await writeFile(
      termCountsPath(options.termCountsDirectory ?? options.directory, tableName),
      JSON.stringify(counts),
    );
    // One compacted fragment set makes the later index builds and scans cheaper than many small appends.
    if (rows > 0) {
      await table.optimize({ cleanupOlderThan: new Date() });
      await vectors?.optimize({ cleanupOlderThan: new Date() });
    }
    options.onProgress?.('text-index', rows);
    const rowIndexes = async (of: Table) => {
      if (rows === 0) return;
      await of.createIndex('type', { config: lancedb.Index.bitmap() });
      await createIdIndex(of);
    };
    const textColumns = relationFields ? [documentColumn, relationsColumn, combinedColumn] : [documentColumn];
    const textIndexes = async () => {
      for (const column of textColumns) {
        await table!.createIndex(column, {
          config: lancedb.Index.fts({
            withPosition: false,
            baseTokenizer: 'simple',
            stem: true,
            removeStopWords: true,
            asciiFolding: true,
          }),
        });
      }
      await rowIndexes(table!);
    };
    const vectorIndexes: Record<string, string> = {};
    const annIndexes = async () => {
      if (!vectors) return;
      for (const column of vectorColumns) {
        options.onProgress?.(`vector-index:${column.name}`, rows);
        vectorIndexes[column.name] = await buildVectorIndex(
          vectors,
          column.name,
          rows,
          options.vectorIndex ?? 'auto',
        );
      }
      await rowIndexes(vectors);
    };
    // The text indexes and the ANN index are built at once (LanceDB commits each index on its own);
    // both are awaited before anything fails, so no build runs on after the table is closed.
    const built = await Promise.allSettled([textIndexes(), annIndexes()]);
    for (const result of built) if (result.status === 'rejected') throw result.reason;
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
    vectors?.close();
    db.close();
  }
}

/** Opens a table written by `writeLanceNodes`, turning a missing one into WEFT_NOT_FOUND. */
export async function openLanceTable(
  directory: string,
  table = defaultNodeTable,
  storageOptions?: Readonly<Record<string, string>>,
): Promise<{ db: Connection; table: Table }> {
  const db = await connectLance(directory, storageOptions);
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

/** Whether LanceDB refused to open a table because there is none of that name. */
function isMissingTable(error: unknown): boolean {
  return /Table '[^']*' was not found/.test(String(error));
}

/**
 * Opens the table that holds the embeddings of node table `table`: its vector table where it has one
 * (`vectorTableName`), the node table itself where it was written with its vectors inline. The
 * vector table is opened rather than looked for in `tableNames()`, which lists nothing on some
 * S3-compatible servers.
 */
export async function openLanceVectorTable(
  directory: string,
  table = defaultNodeTable,
  storageOptions?: Readonly<Record<string, string>>,
): Promise<{ db: Connection; table: Table; separate: boolean }> {
  const db = await connectLance(directory, storageOptions);
  let name = vectorTableName(table);
  try {
    try {
      return { db, table: await db.openTable(name), separate: true };
    } catch (error) {
      if (!isMissingTable(error)) throw error;
    }
    name = table;
    return { db, table: await db.openTable(name), separate: false };
  } catch (error) {
    db.close();
    throw new WeftError({
      code: 'WEFT_NOT_FOUND',
      message: `no LanceDB table ${name} in ${directory}`,
      cause: error,
    });
  }
}

/**
 * A LanceDB connection to a folder or an object-store URI, with the store's settings when given.
 * Object-store failures are said in one line: LanceDB's own message is a nested Rust debug dump.
 */
export async function connectLance(
  uri: string,
  storageOptions: Readonly<Record<string, string>> | undefined,
): Promise<Connection> {
  try {
    return storageOptions && Object.keys(storageOptions).length > 0
      ? await lancedb.connect(uri, { storageOptions: { ...storageOptions } })
      : await lancedb.connect(uri);
  } catch (error) {
    if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(uri)) throw error;
    const text = String(error);
    const reason = /Failed to get AWS credentials/i.test(text)
      ? 'no credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or the storage options aws_access_key_id and aws_secret_access_key)'
      : text.split('\n')[0]!.slice(0, 300);
    throw new WeftError({
      code: 'WEFT_STORE_FAILED',
      message: `cannot reach the LanceDB indexes at ${uri}: ${reason}`,
      cause: error,
    });
  }
}
