import { existsSync } from 'node:fs';
import { stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { toWeftError, WeftError } from '@weft/kit';
import type {
  GraphBuildResult,
  GraphInPlaceChanges,
  GraphInPlaceSession,
  GraphStoreV1,
  SkbEdge,
  SkbNode,
} from '@weft/spec';
import { EmbeddedGraphStore } from './embedded-graph-store.ts';
import type { EmbeddedEngine, EngineValue } from './engine.ts';
import { aliasSeparator } from './mapping.ts';
import { run } from './query.ts';
import { compactionFactor, compactSizeFileName, readCompactBytes } from './update-embedded-graph.ts';
import { edgeKey, nodeRow, phaseTimer } from './update-helpers.ts';

/** Rows per execution of a batched statement. */
const batchRows = 5_000;

/** The node columns an upsert may change, as `SET` clauses of one row's parameters. */
const nodeColumns = {
  type: 'n.type = $type',
  name: 'n.name = $name',
  text: 'n.text = $text',
  // Aliases travel as one string split in Cypher, as in the bulk load: an empty list has no type.
  aliases: `n.aliases = CASE WHEN $aliases = '' THEN CAST([] AS STRING[]) ELSE string_split($aliases, '${aliasSeparator}') END`,
  props: "n.props = CASE WHEN $props = '' THEN CAST(NULL AS STRING) ELSE $props END",
} as const;
type NodeColumn = keyof typeof nodeColumns;

const statements = {
  deleteEdge: 'MATCH (a:Node {id: $src})-[e:Edge]->(b:Node {id: $dst}) WHERE e.type = $type DELETE e',
  deleteNodes: 'UNWIND $ids AS i MATCH (n:Node {id: i}) DETACH DELETE n',
  deleteBareNodes: 'UNWIND $ids AS i MATCH (n:Node {id: i}) DELETE n',
  createNodes: `UNWIND $rows AS r CREATE (n:Node {id: r.id}) SET n.type = r.type, n.name = r.name, n.text = r.text,
      n.aliases = CASE WHEN r.aliases = '' THEN CAST([] AS STRING[]) ELSE string_split(r.aliases, '${aliasSeparator}') END,
      n.props = CASE WHEN r.props = '' THEN CAST(NULL AS STRING) ELSE r.props END`,
  // One seed a query: Kùzu 0.11 plans `UNWIND $ids … MATCH (a {id})-[e]->(b)` with a scan of every
  // node for `b` (15 s for 20 seeds at 10^6 nodes, against 0.2 s for 20 queries of one seed).
  edgesFrom:
    'MATCH (a:Node {id: $id})-[e:Edge]->(b:Node) RETURN a.id AS src, e.type AS type, b.id AS dst, offset(id(e)) AS offset',
  edgesInto:
    'MATCH (b:Node {id: $id})<-[e:Edge]-(a:Node) RETURN a.id AS src, e.type AS type, b.id AS dst, offset(id(e)) AS offset',
  // One edge a statement, inside the transaction (a bulk COPY runs in a transaction of its own);
  // ~1 ms an edge on the 10^5-node synthetic KB.
  createEdge:
    'MATCH (a:Node), (b:Node) WHERE a.id = $src AND b.id = $dst CREATE (a)-[:Edge {type: $type}]->(b)',
  setMeta: 'MERGE (m:WeftMeta {key: $key}) SET m.value = $value',
} as const;

/**
 * An existing node whose columns change is deleted and created again with its edges, up to this
 * many edges; one with more is changed with `SET`. Kùzu 0.11 writes the column chunk of every node
 * group a `SET` touches anew at its checkpoint, and does not reuse the pages it leaves: 5 new texts
 * spread over the 10^5-node synthetic KB grew its 97 MiB graph file by 129 MiB (5.8 s of
 * checkpoint), deleting and creating them (with their edges) by 1.5 MiB. A node created again goes
 * to the end of the table and its edges after the others (the stored order, which relation text
 * follows where a group is capped, docs/skb-format.md).
 */
const recreateMaxEdges = 5_000;

/**
 * `updateInPlace` of an embedded Kùzu-API backend: the graph database opened read-write, or
 * `undefined` when it is open elsewhere (another process holds the engine's lock, or this process has
 * it open). `apply` runs the change set in one transaction — deletions, node upserts (only the
 * columns that change: Kùzu writes a changed column chunk anew at its checkpoint), edge upserts one
 * `CREATE` each — and records the store version and the counts, derived from the manifest's by
 * counting, before and after, only the nodes and edges the change set touches.
 */
export async function openEmbeddedGraphForUpdate(
  engine: EmbeddedEngine,
  directory: string,
): Promise<GraphInPlaceSession | undefined> {
  // A graph grown to `compactionFactor` times its compact size is rebuilt by the copying `update`.
  const file = join(directory, engine.databaseFileName);
  if (existsSync(file)) {
    const bytes = (await stat(file)).size;
    // A graph as the ingest built it is compact: its size is the baseline from its first update on.
    if (!existsSync(join(directory, compactSizeFileName)))
      await writeFile(join(directory, compactSizeFileName), String(bytes));
    if (bytes > compactionFactor * (await readCompactBytes(directory, bytes))) return undefined;
  }
  const store = await EmbeddedGraphStore.openForUpdate(engine, directory);
  if (!store) return undefined;
  const pool = store.connectionPool;
  let inTransaction = false;
  let committed = false;
  let committedVersion: number | undefined;
  let applying: number | undefined;
  let closed = false;
  const execute = (statement: string, params: Record<string, EngineValue>) => pool.query(statement, params);
  const batched = async (statement: string, list: 'ids' | 'rows', rows: readonly unknown[]) => {
    const out: Record<string, unknown>[] = [];
    for (let i = 0; i < rows.length; i += batchRows)
      for (const row of await execute(statement, { [list]: rows.slice(i, i + batchRows) as EngineValue }))
        out.push(row);
    return out;
  };
  const raw = (statement: string) => pool.withLease((lease) => run(lease.connection, statement));

  const graph: GraphStoreV1 = {
    specificationVersion: 'v1',
    provider: store.provider,
    supportsCypher: true,
    get storeVersion() {
      return committedVersion ?? store.storeVersion;
    },
    doGetSchema: () => store.doGetSchema(),
    doGetNodes: (ids, options) => store.doGetNodes(ids, options),
    doNeighbors: (options) => store.doNeighbors(options),
    doLookup: (names, options) => store.doLookup(names, options),
    doCypher: (query, options) => store.doCypher(query, options),
    doStats: () => store.doStats(),
    // The session's graph: closed with the session.
    async close() {},
  };

  return {
    graph,
    version: store.storeVersion,
    async apply(input: GraphInPlaceChanges): Promise<GraphBuildResult> {
      if (inTransaction || committed || closed)
        throw new WeftError({
          code: 'WEFT_STORE_FAILED',
          message: 'an in-place session applies one change set',
        });
      const { timings, lap } = phaseTimer();
      const { changes } = input;
      try {
        // Everything is read before the transaction: Kùzu 0.11 reads edges created in an open
        // transaction wrongly (every new edge as the first one), so nothing is read inside it.
        const deleted = new Set(changes.deleteNodes);
        const deletedEdges = new Set(changes.deleteEdges.map(edgeKey));
        const upsertedIds = changes.nodes.map((node) => node.id);
        const ends = [
          ...new Set([
            ...changes.deleteNodes,
            ...upsertedIds,
            ...changes.edges.flatMap((e) => [e.src, e.dst]),
          ]),
        ];
        const stored = new Map<string, SkbNode>();
        (await store.doGetNodes(ends)).forEach((node, i) => {
          if (node) stored.set(ends[i]!, node);
        });
        // Existing nodes (not deleted) and those of them whose columns the upsert changes.
        const previous = new Map([...stored].filter(([id]) => !deleted.has(id)));
        const changedNodes = changes.nodes.filter((node) => {
          const before = previous.get(node.id);
          return before !== undefined && changedColumns(before, node).length > 0;
        });
        const touched = [
          ...new Set([
            ...changes.deleteNodes,
            ...changes.deleteEdges.map((edge) => edge.src),
            ...changes.edges.map((edge) => edge.src),
            ...changedNodes.map((node) => node.id),
          ]),
        ];
        // Every edge touching `touched`, each once: those out of it, and those into it from elsewhere.
        const seeds = new Set(touched);
        const edgesBefore: (SkbEdge & { offset: number })[] = [];
        const edgeOf = (row: Record<string, unknown>) => ({
          src: String(row.src),
          type: String(row.type),
          dst: String(row.dst),
          offset: Number(row.offset),
        });
        for (const id of touched) {
          for (const row of await execute(statements.edgesFrom, { id })) edgesBefore.push(edgeOf(row));
          for (const row of await execute(statements.edgesInto, { id }))
            if (!seeds.has(String(row.src))) edgesBefore.push(edgeOf(row));
        }
        const kept = edgesBefore.filter(
          (edge) => !deletedEdges.has(edgeKey(edge)) && !deleted.has(edge.src) && !deleted.has(edge.dst),
        );
        // Changed nodes created again, with the edges they keep, in stored order; hubs are SET.
        const degree = new Map<string, number>();
        for (const edge of kept)
          for (const end of [edge.src, edge.dst]) degree.set(end, (degree.get(end) ?? 0) + 1);
        const recreated = new Set(
          changedNodes
            .filter((node) => (degree.get(node.id) ?? 0) <= recreateMaxEdges)
            .map((node) => node.id),
        );
        const recreatedEdges = kept
          .filter((edge) => recreated.has(edge.src) || recreated.has(edge.dst))
          .sort((a, b) => a.offset - b.offset);
        // An edge is (src, type, dst): created only when no edge of that type joins the two nodes yet.
        const present = new Set(kept.map(edgeKey));
        const newEdges = new Map<string, SkbEdge>();
        for (const edge of changes.edges) if (!present.has(edgeKey(edge))) newEdges.set(edgeKey(edge), edge);
        lap('read-before');

        // Each edge is deleted once: Kùzu 0.11 miscounts an edge deleted twice in one transaction
        // (by name and again with its node): aggregates count it after the commit. So the edges named
        // and those of recreated nodes go by key unless a deleted node takes them, then the deleted
        // nodes with their edges, then the recreated nodes, left without edges.
        const byKey = new Map<string, SkbEdge>();
        for (const edge of [...changes.deleteEdges, ...recreatedEdges])
          if (!deleted.has(edge.src) && !deleted.has(edge.dst))
            byKey.set(edgeKey(edge), { src: edge.src, type: edge.type, dst: edge.dst });
        await raw('BEGIN TRANSACTION');
        inTransaction = true;
        let removed = 0;
        for (const edge of byKey.values()) {
          await execute(statements.deleteEdge, { src: edge.src, type: edge.type, dst: edge.dst });
          if (++removed % 1000 === 0) input.onProgress?.('deleteEdge', removed);
        }
        await batched(statements.deleteNodes, 'ids', changes.deleteNodes);
        await batched(statements.deleteBareNodes, 'ids', [...recreated]);
        lap('delete');
        const created: Record<string, string>[] = [];
        for (const [i, node] of changes.nodes.entries()) {
          const before = previous.get(node.id);
          if (!before || recreated.has(node.id)) {
            created.push(nodeRow(node));
            continue;
          }
          const changed = changedColumns(before, node);
          if (changed.length > 0) {
            const row = nodeRow(node);
            const params: Record<string, EngineValue> = { id: node.id };
            for (const column of changed) params[column] = row[column]!;
            await execute(
              `MATCH (n:Node {id: $id}) SET ${changed.map((column) => nodeColumns[column]).join(', ')}`,
              params,
            );
          }
          if ((i + 1) % 1000 === 0) input.onProgress?.('updateNode', i + 1);
        }
        await batched(statements.createNodes, 'rows', created);
        lap('upsert-nodes');
        let done = 0;
        for (const edge of [...recreatedEdges, ...newEdges.values()]) {
          await execute(statements.createEdge, { src: edge.src, type: edge.type, dst: edge.dst });
          if (++done % 1000 === 0) input.onProgress?.('createEdge', done);
        }
        lap('create-edges');

        // The counts, from the manifest's: what the touched nodes and edges were, and are now.
        const tally = (types: Iterable<string>) => {
          const counts = new Map<string, number>();
          for (const type of types) counts.set(type, (counts.get(type) ?? 0) + 1);
          return counts;
        };
        const upserted = new Map(changes.nodes.map((node) => [node.id, node.type]));
        const nodesByType = shifted(
          input.counts.nodesByType,
          tally(
            [...stored].filter(([id]) => deleted.has(id) || upserted.has(id)).map(([, node]) => node.type),
          ),
          tally(upserted.values()),
        );
        const edgesByType = shifted(
          input.counts.edgesByType,
          tally(edgesBefore.map((edge) => edge.type)),
          tally([...kept, ...newEdges.values()].map((edge) => edge.type)),
        );
        const nodes = Object.values(nodesByType).reduce((a, b) => a + b, 0);
        const edges = Object.values(edgesByType).reduce((a, b) => a + b, 0);
        await execute(statements.setMeta, {
          key: 'counts',
          value: JSON.stringify({ nodes, edges, nodesByType, edgesByType }),
        });
        await execute(statements.setMeta, { key: 'storeVersion', value: String(input.version) });
        applying = input.version;
        lap('count');
        return { location: store.path, nodes, edges, nodesByType, edgesByType, timings };
      } catch (error) {
        throw WeftError.is(error)
          ? error
          : toWeftError(error, 'WEFT_STORE_FAILED', `updating the ${engine.label} graph in place failed`);
      }
    },
    async commit() {
      if (!inTransaction)
        throw new WeftError({
          code: 'WEFT_STORE_FAILED',
          message: 'nothing to commit: apply the changes first',
        });
      await raw('COMMIT');
      inTransaction = false;
      committed = true;
      committedVersion = applying;
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        if (inTransaction) await raw('ROLLBACK').catch(() => undefined);
      } finally {
        inTransaction = false;
        await store.close();
      }
    },
  };
}

/** The columns `node` changes of `before`. */
function changedColumns(before: SkbNode, node: SkbNode): NodeColumn[] {
  const old = nodeRow(before);
  const row = nodeRow(node);
  return (Object.keys(nodeColumns) as NodeColumn[]).filter((column) => old[column] !== row[column]);
}

/** `counts` with `before` taken out and `after` put in, types left at 0 dropped. */
function shifted(
  counts: Readonly<Record<string, number>>,
  before: ReadonlyMap<string, number>,
  after: ReadonlyMap<string, number>,
): Record<string, number> {
  const out: Record<string, number> = { ...counts };
  for (const [type, count] of before) out[type] = (out[type] ?? 0) - count;
  for (const [type, count] of after) out[type] = (out[type] ?? 0) + count;
  for (const [type, count] of Object.entries(out)) if (count === 0) delete out[type];
  return out;
}
