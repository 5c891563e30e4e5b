import { constants } from 'node:fs';
import { cp, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { toWeftError, WeftError } from '@weft/core';
import type { SkbChangeSet, SkbSchema } from '@weft/spec';
import type { EmbeddedGraphBuild } from './build-embedded-graph.ts';
import type { EmbeddedEngine, EngineConnection, EngineDatabase } from './engine.ts';
import { aliasSeparator } from './mapping.ts';
import { drain, run } from './query.ts';

export interface UpdateEmbeddedGraphOptions {
  /** The graph folder to start from (as `buildEmbeddedGraph` wrote it); never written to. */
  readonly source: string;
  /** A folder that does not exist yet or is empty: the changed graph goes here. */
  readonly directory: string;
  readonly schema: SkbSchema;
  /** A validated change set (`readChangeSet` of `@weft/skb`). */
  readonly changes: SkbChangeSet;
  readonly onProgress?: (phase: string, done: number) => void;
}

const statements = {
  deleteEdge:
    'MATCH (a:Node)-[e:Edge]->(b:Node) WHERE a.id = $src AND b.id = $dst AND e.type = $type DELETE e',
  deleteNode: 'MATCH (n:Node) WHERE n.id = $id DETACH DELETE n',
  // Aliases travel as one string split in Cypher, as in the bulk load: an empty list parameter has no type.
  upsertNode: `MERGE (n:Node {id: $id})
    SET n.type = $type, n.name = $name, n.text = $text,
      n.aliases = CASE WHEN $aliases = '' THEN CAST([] AS STRING[]) ELSE string_split($aliases, '${aliasSeparator}') END,
      n.props = CASE WHEN $props = '' THEN CAST(NULL AS STRING) ELSE $props END`,
  // An edge is (src, type, dst): created only when no edge of that type joins the two nodes yet.
  findEdge:
    'MATCH (a:Node)-[e:Edge]->(b:Node) WHERE a.id = $src AND b.id = $dst AND e.type = $type RETURN count(*) AS count',
  createEdge:
    'MATCH (a:Node), (b:Node) WHERE a.id = $src AND b.id = $dst CREATE (a)-[e:Edge]->(b) SET e.type = $type',
  setCounts: "MATCH (m:WeftMeta) WHERE m.key = 'counts' SET m.value = $value",
} as const;

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
  const timings: Record<string, number> = {};
  let started = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    timings[name] = Math.round(now - started) / 1000;
    started = now;
  };
  await mkdir(options.directory, { recursive: true });
  await cp(options.source, options.directory, { recursive: true, mode: constants.COPYFILE_FICLONE });
  lap('copy');
  const path = join(options.directory, engine.databaseFileName);
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
    await run(open, 'BEGIN TRANSACTION');
    let done = 0;
    const step = (phase: string) => {
      done++;
      if (done % 1000 === 0) options.onProgress?.(phase, done);
    };
    for (const edge of changes.deleteEdges) {
      await execute('deleteEdge', { src: edge.src, dst: edge.dst, type: edge.type });
      step('delete-edges');
    }
    for (const id of changes.deleteNodes) {
      await execute('deleteNode', { id });
      step('delete-nodes');
    }
    for (const node of changes.nodes) {
      const props = node.props && Object.keys(node.props).length > 0 ? JSON.stringify(node.props) : '';
      await execute('upsertNode', {
        id: node.id,
        type: node.type,
        name: node.name,
        text: node.text,
        aliases: (node.aliases ?? []).join(aliasSeparator),
        props,
      });
      step('upsert-nodes');
    }
    for (const edge of changes.edges) {
      const params = { src: edge.src, dst: edge.dst, type: edge.type };
      const [found] = await execute('findEdge', params);
      if (Number(found?.count ?? 0) === 0) await execute('createEdge', params);
      step('upsert-edges');
    }
    await run(open, 'COMMIT');
    lap('apply');
    // Counted after the commit: inside the transaction Kùzu 0.11 grouped new edges under wrong types.
    const nodesByType = await countsByType(open, 'MATCH (n:Node) RETURN n.type AS type, count(*) AS count');
    const edgesByType = await countsByType(
      open,
      'MATCH (:Node)-[e:Edge]->(:Node) RETURN e.type AS type, count(*) AS count',
    );
    const nodes = Object.values(nodesByType).reduce((a, b) => a + b, 0);
    const edges = Object.values(edgesByType).reduce((a, b) => a + b, 0);
    await execute('setCounts', { value: JSON.stringify({ nodes, edges, nodesByType, edgesByType }) });
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

async function countsByType(
  connection: EngineConnection,
  statement: string,
): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const row of await run(connection, statement)) counts[String(row.type)] = Number(row.count);
  return counts;
}
