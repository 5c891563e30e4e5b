import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { toWeftError, WeftError } from '@weft/kit';
import type { SkbEdge, SkbNode, SkbSchema } from '@weft/spec';
import { CsvFileWriter } from '../csv-file-writer.ts';
import type { EmbeddedEngine, EngineConnection, EngineDatabase } from './engine.ts';
import { aliasSeparator, edgeTableDdl, metaTableDdl, nodeTableDdl } from './mapping.ts';
import { run } from './query.ts';
import { phaseTimer } from './update-helpers.ts';

export type BuildPhase = 'write-nodes' | 'write-edges' | 'copy-nodes' | 'copy-edges' | 'checkpoint';

export interface BuildEmbeddedGraphOptions {
  /** A directory that does not exist yet or is empty; the database goes in `<directory>/<engine.databaseFileName>`. */
  readonly directory: string;
  readonly schema: SkbSchema;
  /** Nodes and edges, streamed once each (validate the bundle first: the build trusts its input). */
  readonly nodes: AsyncIterable<SkbNode> | Iterable<SkbNode>;
  readonly edges: AsyncIterable<SkbEdge> | Iterable<SkbEdge>;
  /** Where the intermediate CSV files go (default: a temp folder inside `directory`, removed afterwards). */
  readonly scratchDirectory?: string;
  readonly onProgress?: (phase: BuildPhase, done: number) => void;
}

export interface EmbeddedGraphBuild {
  readonly path: string;
  readonly nodes: number;
  readonly edges: number;
  readonly nodesByType: Record<string, number>;
  readonly edgesByType: Record<string, number>;
  /** Seconds per phase. */
  readonly timings: Record<string, number>;
}

/** A Cypher string literal. */
export function cypherString(value: string): string {
  return `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

/**
 * Builds a graph of a Kùzu-API engine from an SKB by bulk loading: the records are written to CSV
 * files, then loaded with one `COPY FROM` per table (never row-by-row inserts). The database is
 * closed, and so checkpointed, before this resolves.
 */
export async function buildEmbeddedGraph(
  engine: EmbeddedEngine,
  options: BuildEmbeddedGraphOptions,
): Promise<EmbeddedGraphBuild> {
  await mkdir(options.directory, { recursive: true });
  const path = join(options.directory, engine.databaseFileName);
  const scratch = options.scratchDirectory ?? (await mkdtemp(join(options.directory, '.csv-')));
  await mkdir(scratch, { recursive: true });
  const { timings, lap } = phaseTimer();
  const nodesByType: Record<string, number> = {};
  const edgesByType: Record<string, number> = {};
  let nodes = 0;
  let edges = 0;
  let db: EngineDatabase | undefined;
  let connection: EngineConnection | undefined;
  try {
    const nodeCsv = join(scratch, 'nodes.csv');
    const nodeWriter = new CsvFileWriter(nodeCsv, ['id', 'type', 'name', 'aliases', 'text', 'props']);
    for await (const node of options.nodes) {
      const props = node.props && Object.keys(node.props).length > 0 ? JSON.stringify(node.props) : '';
      await nodeWriter.row([
        node.id,
        node.type,
        node.name,
        (node.aliases ?? []).join(aliasSeparator),
        node.text,
        props,
      ]);
      nodes++;
      nodesByType[node.type] = (nodesByType[node.type] ?? 0) + 1;
      if (nodes % 20_000 === 0) options.onProgress?.('write-nodes', nodes);
    }
    await nodeWriter.close();
    options.onProgress?.('write-nodes', nodes);
    lap('writeNodes');

    const edgeCsv = join(scratch, 'edges.csv');
    const edgeWriter = new CsvFileWriter(edgeCsv, ['src', 'dst', 'type']);
    for await (const edge of options.edges) {
      await edgeWriter.row([edge.src, edge.dst, edge.type]);
      edges++;
      edgesByType[edge.type] = (edgesByType[edge.type] ?? 0) + 1;
      if (edges % 50_000 === 0) options.onProgress?.('write-edges', edges);
    }
    await edgeWriter.close();
    options.onProgress?.('write-edges', edges);
    lap('writeEdges');

    await engine.load();
    db = engine.openDatabase(path, { readOnly: false });
    connection = engine.connect(db);
    await run(connection, nodeTableDdl);
    await run(connection, edgeTableDdl);
    await run(connection, metaTableDdl);
    // Quoted line breaks need Kùzu's serial CSV reader; the parallel one is used when there are none.
    const csvOptions = (writer: CsvFileWriter) =>
      `(HEADER=true${writer.hasLineBreaks ? ', PARALLEL=false' : ''})`;
    options.onProgress?.('copy-nodes', 0);
    await run(
      connection,
      // Declared column types: without them Kùzu sniffs each field (`{...}` props become a STRUCT, `123` an
      // INT64) and AUTO_DETECT=false does not stop it.
      `COPY Node FROM (LOAD WITH HEADERS (id STRING, type STRING, name STRING, aliases STRING, text STRING, props STRING)
        FROM ${cypherString(nodeCsv)} ${csvOptions(nodeWriter)}
        RETURN id, type, CASE WHEN name IS NULL THEN '' ELSE name END,
          CASE WHEN aliases = '' OR aliases IS NULL THEN CAST([] AS STRING[]) ELSE string_split(aliases, '${aliasSeparator}') END,
          CASE WHEN text IS NULL THEN '' ELSE text END,
          props)`,
    );
    options.onProgress?.('copy-nodes', nodes);
    lap('copyNodes');
    options.onProgress?.('copy-edges', 0);
    await run(connection, `COPY Edge FROM ${cypherString(edgeCsv)} ${csvOptions(edgeWriter)}`);
    options.onProgress?.('copy-edges', edges);
    lap('copyEdges');
    const schemaJson = JSON.stringify(options.schema);
    const statement = await connection.prepare('CREATE (:WeftMeta {key: $key, value: $value})');
    for (const [key, value] of [
      ['schema', schemaJson],
      ['counts', JSON.stringify({ nodes, edges, nodesByType, edgesByType })],
    ] as const) {
      const result = await connection.execute(statement, { key, value });
      for (const one of Array.isArray(result) ? result : [result]) one.close();
    }
    options.onProgress?.('checkpoint', 0);
    await connection.close();
    connection = undefined;
    await db.close();
    db = undefined;
    lap('checkpoint');
  } catch (error) {
    throw WeftError.is(error)
      ? error
      : toWeftError(error, 'WEFT_STORE_FAILED', `building the ${engine.label} graph failed`);
  } finally {
    await connection?.close().catch(() => undefined);
    await db?.close().catch(() => undefined);
    if (!options.scratchDirectory) await rm(scratch, { recursive: true, force: true });
  }
  return { path, nodes, edges, nodesByType, edgesByType, timings };
}
