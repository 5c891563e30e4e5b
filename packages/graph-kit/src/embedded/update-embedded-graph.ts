import { constants, existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { toWeftError, WeftError } from '@weft/kit';
import type { SkbChangeSet, SkbEdge, SkbSchema } from '@weft/spec';
import { CsvFileWriter } from '../csv-file-writer.ts';
import { cypherString } from './build-embedded-graph.ts';
import type { EmbeddedGraphBuild } from './build-embedded-graph.ts';
import { adjacencyFileName, nameIndexFileName } from '../kept-structures.ts';
import type { EmbeddedEngine, EngineConnection, EngineDatabase } from './engine.ts';
import { aliasSeparator, edgeTableDdl, metaTableDdl, nodeTableDdl } from './mapping.ts';
import { drain, run } from './query.ts';
import { edgeKey, nodeRow, phaseTimer } from './update-helpers.ts';

export interface UpdateEmbeddedGraphOptions {
  /** The graph folder to start from (as `buildEmbeddedGraph` wrote it); never written to. */
  readonly source: string;
  /** A folder that does not exist yet or is empty: the changed graph goes here. */
  readonly directory: string;
  readonly schema: SkbSchema;
  /** A validated change set (`readChangeSet` of `@weft/skb`). */
  readonly changes: SkbChangeSet;
  /** The store version to record in the changed graph (`GraphStoreV1.storeVersion`). */
  readonly version?: number;
  readonly onProgress?: (phase: string, done: number) => void;
}

// Aliases travel as one string split in Cypher, as in the bulk load: an empty list has no type.
const setNode = (row: string) => `SET n.type = ${row}type, n.name = ${row}name, n.text = ${row}text,
      n.aliases = CASE WHEN ${row}aliases = '' THEN CAST([] AS STRING[]) ELSE string_split(${row}aliases, '${aliasSeparator}') END,
      n.props = CASE WHEN ${row}props = '' THEN CAST(NULL AS STRING) ELSE ${row}props END`;

/**
 * The statements of an update. Those of `$ids` (a list of node ids) or `$rows` (a list of structs)
 * run once per batch: one execution per record took most of an update's time. Nodes are matched from
 * `$ids`, not from a field of `$rows`: Kùzu 0.11 joins a string list through the primary-key index
 * (~0.1 ms an id) but `r.id` by scans (~1–3 ms an id on WordNet). A pattern matching both ends of an
 * edge by id looks the second end up by a scan (10 ms a row on 135,000 nodes): `deleteEdge` runs
 * once per edge, prepared.
 */
const statements = {
  deleteEdge: 'MATCH (a:Node {id: $src})-[e:Edge]->(b:Node {id: $dst}) WHERE e.type = $type DELETE e',
  deleteNodes: 'UNWIND $ids AS i MATCH (n:Node {id: i}) DETACH DELETE n',
  existingNodes: 'UNWIND $ids AS i MATCH (n:Node {id: i}) RETURN n.id AS id',
  // One execution per node: `UNWIND … MERGE` (or `MATCH … SET`) over a batch cost ~1.3 ms a node on
  // WordNet, a prepared statement per node ~0.3 ms.
  updateNode: `MATCH (n:Node {id: $id}) ${setNode('$')}`,
  createNodes: `UNWIND $rows AS r CREATE (n:Node {id: r.id}) ${setNode('r.')}`,
  // An edge is (src, type, dst): created only when no edge of that type joins the two nodes yet. The
  // existing ones are found among the edges out of the sources (a pattern bound at both ends by id
  // took seconds per thousand rows).
  edgesFrom:
    'UNWIND $ids AS i MATCH (a:Node {id: i})-[e:Edge]->(b:Node) RETURN a.id AS src, e.type AS type, b.id AS dst',
  setCounts: "MATCH (m:WeftMeta) WHERE m.key = 'counts' SET m.value = $value",
  setVersion: "MERGE (m:WeftMeta {key: 'storeVersion'}) SET m.value = $value",
} as const;

/** Rows per execution of a batched statement. */
const batchRows = 5_000;

/**
 * Applies a change set to a copy of an embedded graph: the database is copied to `directory`
 * (copy-on-write where the file system can), changed there in one transaction (deletions, then node
 * upserts, then edge upserts) and closed, so checkpointed. The source is never opened: readers of it
 * keep answering, and a killed update leaves only the copy.
 */
export async function updateEmbeddedGraph(
  engine: EmbeddedEngine,
  options: UpdateEmbeddedGraphOptions,
): Promise<EmbeddedGraphBuild> {
  const { timings, lap } = phaseTimer();
  await mkdir(options.directory, { recursive: true });
  const path = join(options.directory, engine.databaseFileName);
  const sourceBytes = (await stat(join(options.source, engine.databaseFileName))).size;
  const compactBytes = await readCompactBytes(options.source, sourceBytes);
  if (sourceBytes > compactionFactor * compactBytes) {
    await compactGraph(engine, options.source, options.directory);
    lap('compact');
  } else {
    // Not the adjacency and name index a reader saved beside the source: they belong to its database
    // file (a new one no longer matches them) and would only be copied to be ignored.
    const derived = new Set([adjacencyFileName, nameIndexFileName]);
    await cp(options.source, options.directory, {
      recursive: true,
      mode: constants.COPYFILE_FICLONE,
      filter: (path) => !derived.has(basename(path)),
    });
    await writeFile(join(options.directory, compactSizeFileName), String(compactBytes));
    lap('copy');
  }
  let db: EngineDatabase | undefined;
  let connection: EngineConnection | undefined;
  try {
    await engine.load();
    db = engine.openDatabase(path, { readOnly: false });
    await db.init();
    const open = engine.connect(db);
    connection = open;
    // One statement at a time: a connection prepares and runs one query at once.
    const prepared = {} as Record<keyof typeof statements, Awaited<ReturnType<EngineConnection['prepare']>>>;
    for (const [name, text] of Object.entries(statements) as [keyof typeof statements, string][]) {
      const statement = await open.prepare(text);
      if (!statement.isSuccess())
        throw new WeftError({
          code: 'WEFT_STORE_FAILED',
          message: `${engine.label} refused an update statement (${name}): ${statement.getErrorMessage()}`,
        });
      prepared[name] = statement;
    }
    const execute = async (name: keyof typeof statements, params: Record<string, unknown>) =>
      drain(await open.execute(prepared[name], params));
    const { changes } = options;
    // Each batch in order; an empty list is not run (Cypher cannot type an empty list parameter).
    const batched = async (
      name: keyof typeof statements,
      list: 'ids' | 'rows',
      rows: readonly (Record<string, string> | string)[],
    ) => {
      const out: Record<string, unknown>[] = [];
      for (let i = 0; i < rows.length; i += batchRows) {
        out.push(...(await execute(name, { [list]: rows.slice(i, i + batchRows) })));
        options.onProgress?.(name, Math.min(rows.length, i + batchRows));
      }
      return out;
    };
    lap('open');
    // Which upserted nodes and edge ends exist once the deletions are done: an existing node is
    // updated in place, a new one created; only an edge between two existing nodes can exist already.
    const ends = [
      ...new Set([...changes.nodes.map((node) => node.id), ...changes.edges.flatMap((e) => [e.src, e.dst])]),
    ];
    const deleted = new Set(changes.deleteNodes);
    const existing = new Set(
      (await batched('existingNodes', 'ids', ends))
        .map((row) => String(row.id))
        .filter((id) => !deleted.has(id)),
    );
    lap('existing-nodes');
    await run(open, 'BEGIN TRANSACTION');
    const forEachEdge = async (name: 'deleteEdge', edges: readonly Record<string, string>[]) => {
      for (const [i, edge] of edges.entries()) {
        await execute(name, edge);
        if ((i + 1) % 1000 === 0 || i + 1 === edges.length) options.onProgress?.(name, i + 1);
      }
    };
    // An edge a deleted node takes with it is not deleted by name first: Kùzu 0.11 miscounts an edge
    // deleted twice in one transaction (aggregates still count it after the commit).
    await forEachEdge(
      'deleteEdge',
      changes.deleteEdges
        .filter((e) => !deleted.has(e.src) && !deleted.has(e.dst))
        .map((e) => ({ src: e.src, type: e.type, dst: e.dst })),
    );
    await batched('deleteNodes', 'ids', changes.deleteNodes);
    lap('delete');
    const nodeRows = changes.nodes.map(nodeRow);
    for (const [i, row] of nodeRows.filter((row) => existing.has(row.id)).entries()) {
      await execute('updateNode', row);
      if ((i + 1) % 1000 === 0) options.onProgress?.('updateNode', i + 1);
    }
    await batched(
      'createNodes',
      'rows',
      nodeRows.filter((row) => !existing.has(row.id)),
    );
    lap('upsert-nodes');
    const sources = [
      ...new Set(
        changes.edges
          .filter((edge) => existing.has(edge.src) && existing.has(edge.dst))
          .map((edge) => edge.src),
      ),
    ];
    const present = new Set((await batched('edgesFrom', 'ids', sources)).map(edgeKey));
    const created = new Map<string, SkbEdge>();
    for (const edge of changes.edges) {
      const key = edgeKey(edge);
      if (!present.has(key)) created.set(key, edge);
    }
    lap('existing-edges');
    await run(open, 'COMMIT');
    if (created.size > 0) {
      // Bulk loaded, as the build does (one COPY, in the change set's order): a CREATE per edge cost
      // 1–2 ms each. COPY runs in a transaction of its own, hence after the commit; the database is
      // this update's private copy, dropped if anything fails, so the change set still applies whole
      // or not at all.
      const csv = join(options.directory, 'new-edges.csv');
      const writer = new CsvFileWriter(csv, ['src', 'dst', 'type']);
      for (const edge of created.values()) await writer.row([edge.src, edge.dst, edge.type]);
      await writer.close();
      await run(
        open,
        `COPY Edge FROM ${cypherString(csv)} (HEADER=true${writer.hasLineBreaks ? ', PARALLEL=false' : ''})`,
      );
      await rm(csv, { force: true });
      options.onProgress?.('createEdges', created.size);
    }
    lap('create-edges');
    // Counted after the commit: inside the transaction Kùzu 0.11 grouped new edges under wrong types.
    const nodesByType = await countsByType(open, 'MATCH (n:Node) RETURN n.type AS type, count(*) AS count');
    const edgesByType = await countsByType(
      open,
      'MATCH (:Node)-[e:Edge]->(:Node) RETURN e.type AS type, count(*) AS count',
    );
    const nodes = Object.values(nodesByType).reduce((a, b) => a + b, 0);
    const edges = Object.values(edgesByType).reduce((a, b) => a + b, 0);
    await execute('setCounts', { value: JSON.stringify({ nodes, edges, nodesByType, edgesByType }) });
    if (options.version !== undefined) await execute('setVersion', { value: String(options.version) });
    lap('commit');
    options.onProgress?.('checkpoint', 0);
    await open.close();
    connection = undefined;
    await db.close();
    db = undefined;
    lap('checkpoint');
    return { path, nodes, edges, nodesByType, edgesByType, timings };
  } catch (error) {
    throw WeftError.is(error)
      ? error
      : toWeftError(error, 'WEFT_STORE_FAILED', `updating the ${engine.label} graph failed`);
  } finally {
    await connection?.close().catch(() => undefined);
    await db?.close().catch(() => undefined);
  }
}

/**
 * Beside an updated graph: the size its database file had when last built compact. Kùzu (0.11)
 * writes the column chunks an update changes anew at its checkpoint and does not reuse the pages
 * they leave, so the file grows with every update (by about a tenth of the graph for 1,000 nodes
 * spread over a 135,000-node graph); once it is `compactionFactor` times its compact size, the next
 * update rebuilds it.
 */
export const compactSizeFileName = 'compact-bytes';
export const compactionFactor = 2;

/** The compact size of the graph in `folder`: recorded, or (a graph as ingest built it) its size. */
export async function readCompactBytes(folder: string, bytes: number): Promise<number> {
  const file = join(folder, compactSizeFileName);
  if (!existsSync(file)) return bytes;
  const recorded = Number((await readFile(file, 'utf8')).trim());
  return Number.isFinite(recorded) && recorded > 0 ? recorded : bytes;
}

/**
 * Rebuilds the graph in `source` into `target`: the engine exports its nodes and edges, in stored
 * order (the edge order that relation text follows is kept), to Parquet files, and a new database
 * bulk loads them (COPY), with the source's metadata rows. Neither side passes rows through
 * JavaScript: reading them row by row and writing CSV took most of a rebuild (25 s at 724,000 edges).
 */
async function compactGraph(engine: EmbeddedEngine, source: string, target: string): Promise<void> {
  await engine.load();
  await rm(target, { recursive: true, force: true });
  await mkdir(target, { recursive: true });
  const exported = await mkdtemp(join(target, '.export-'));
  const nodesFile = join(exported, 'nodes.parquet');
  const edgesFile = join(exported, 'edges.parquet');
  let db: EngineDatabase | undefined;
  let connection: EngineConnection | undefined;
  try {
    db = engine.openDatabase(join(source, engine.databaseFileName), { readOnly: true });
    await db.init();
    connection = engine.connect(db);
    await run(
      connection,
      `COPY (MATCH (n:Node) RETURN n.id, n.type, n.name, n.aliases, n.text, n.props ORDER BY offset(id(n))) TO ${cypherString(nodesFile)}`,
    );
    await run(
      connection,
      `COPY (MATCH (a:Node)-[e:Edge]->(b:Node) RETURN a.id, b.id, e.type ORDER BY offset(id(e))) TO ${cypherString(edgesFile)}`,
    );
    const meta = await run(connection, 'MATCH (m:WeftMeta) RETURN m.key AS key, m.value AS value');
    await connection.close();
    connection = undefined;
    await db.close();
    db = undefined;

    db = engine.openDatabase(join(target, engine.databaseFileName), { readOnly: false });
    await db.init();
    connection = engine.connect(db);
    await run(connection, nodeTableDdl);
    await run(connection, edgeTableDdl);
    await run(connection, metaTableDdl);
    await run(connection, `COPY Node FROM ${cypherString(nodesFile)}`);
    await run(connection, `COPY Edge FROM ${cypherString(edgesFile)}`);
    const statement = await connection.prepare('CREATE (:WeftMeta {key: $key, value: $value})');
    for (const row of meta) drain(await connection.execute(statement, { key: row.key, value: row.value }));
    // Closed, so checkpointed, before its size is taken.
    await connection.close();
    connection = undefined;
    await db.close();
    db = undefined;
  } finally {
    await connection?.close().catch(() => undefined);
    await db?.close().catch(() => undefined);
    await rm(exported, { recursive: true, force: true });
  }
  await writeFile(
    join(target, compactSizeFileName),
    String((await stat(join(target, engine.databaseFileName))).size),
  );
}

async function countsByType(
  connection: EngineConnection,
  statement: string,
): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const row of await run(connection, statement)) counts[String(row.type)] = Number(row.count);
  return counts;
}
