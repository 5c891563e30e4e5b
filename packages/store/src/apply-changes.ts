import { existsSync } from 'node:fs';
import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { WeftError } from '@weft/kit';
import { createEmbeddingModel, embedTexts, parseEmbedderSpec } from '@weft/embed-local';
import type { LanceNodeRecord } from '@weft/index-lancedb';
import { type ChangeSetReport, formatSkbIssue, readChangeSet } from '@weft/skb';
import type {
  GraphBackendV1,
  GraphBuildResult,
  GraphInPlaceSession,
  GraphStoreV1,
  SkbChangeSet,
  SkbEdge,
  SkbNode,
  SkbSchema,
} from '@weft/spec';
import {
  CachedEmbedder,
  type EmbeddingStats,
  type RemoteEmbeddingOptions,
  remoteEmbedderNamespace,
} from './cached-embedder.ts';
import { EmbeddingCache, embeddingCacheFolder } from './embedding-cache.ts';
import { loadBackendPackage } from './backend-packages.ts';
import { resolveGraphBackend } from './graph-backends.ts';
import { lancePackage } from './index-backends.ts';
import {
  describedByNeighbours,
  RelationDocuments,
  type RelationDocumentOptions,
} from './relation-documents.ts';
import { readManifest, recoverStoreDirectory } from './store-directory.ts';
import { embeddingText, localEmbedderPath } from './store-indexes.ts';
import type { StoreManifest } from './store-manifest.ts';
import {
  collectOldVersions,
  commitManifest,
  lockForUpdate,
  manifestPaths,
  pauseForTest,
  storeVersion,
  versionFolder,
} from './store-versions.ts';

/**
 * The most records (node and edge upserts and deletions) an update applies in place: each new edge
 * is one statement there (~3 ms at 10^5 nodes), where a copy bulk loads them.
 */
export const inPlaceMaxRecords = 5_000;

export interface ApplyChangesOptions {
  /** Graph backends besides the built-in ones; the manifest's `graph.provider` picks one by id. */
  readonly graphBackends?: readonly GraphBackendV1[];
  /** Stop validation at the first problem. */
  readonly strict?: boolean;
  /** The caps the store's relation text was built with (default: `buildStore`'s defaults). */
  readonly relationLimits?: RelationDocumentOptions;
  /**
   * The embedding cache of a hosted embedder (see `buildStore`): by default the store's own
   * (`<directory>/embedding-cache`), a folder of your own, or `false` for none.
   */
  readonly embeddingCache?: string | false;
  /** Batch size, concurrency and retries of a hosted embedder. */
  readonly remoteEmbedding?: RemoteEmbeddingOptions;
  /** Called before a failed embedding call is retried. */
  readonly onEmbeddingRetry?: (error: unknown, delayMs: number) => void;
  /**
   * `phase` is `validate`, `graph` (and the backend's `graph:…`), `relations`, `embed` (a hosted
   * embedder's texts as they get their vectors, from the cache or embedded) and `index`; `total` when known.
   */
  readonly onProgress?: (phase: string, done: number, total?: number) => void;
  /** Test hook: called when the new version is complete, just before the manifest is committed. */
  readonly beforeCommit?: () => Promise<void>;
  /**
   * Change the graph where it is, in the engine's transaction, when the backend can
   * (`updateInPlace`), no one has the graph open and the change set is small (`inPlaceMaxRecords`);
   * otherwise, or with `false`, write a changed copy as the new version (default true).
   */
  readonly inPlace?: boolean;
}

export interface AppliedChanges {
  /**
   * The store version now committed (one more than before), or the previous one when the change set
   * changes nothing (`unchanged`): then no version is written.
   */
  readonly version: number;
  readonly previousVersion: number;
  /** The change set changes nothing in the store (`changeSetEffect`): no version was created. */
  readonly unchanged: boolean;
  /**
   * `in-place`: the graph was changed where it is (only what changed was written); `copy`: the new
   * version has a changed copy of the graph (`copyReason` says why).
   */
  readonly mode: 'in-place' | 'copy';
  readonly copyReason?: string;
  readonly manifest: StoreManifest;
  readonly nodesUpserted: number;
  /** Nodes of the store deleted (deletions of ids the store does not hold are not counted). */
  readonly nodesDeleted: number;
  readonly edgesUpserted: number;
  /** Edges of the store deleted: those the change set names and those that went with a deleted node. */
  readonly edgesDeleted: number;
  /** Of `edgesDeleted`, those removed because a node they touch was deleted. */
  readonly edgesDeletedWithNodes: number;
  /** Index rows written again: upserted nodes and nodes whose relation text may have changed. */
  readonly rowsRewritten: number;
  /** Documents embedded (the upserted nodes'). */
  readonly embedded: number;
  /** What embedding with a hosted embedder cost (cache hits and misses, calls, retries); absent for `local`. */
  readonly embedding?: EmbeddingStats;
  readonly seconds: number;
  /** Seconds per phase. */
  readonly timings: Readonly<Record<string, number>>;
}

/** A change set that failed validation: the message lists the problems as file:line. */
function invalidChanges(changes: string, report: ChangeSetReport): WeftError {
  const counts = Object.entries(report.counts)
    .map(([code, count]) => `${count} ${code}`)
    .join(', ');
  const shown = report.issues.slice(0, 50).map((issue) => `  ${formatSkbIssue(issue)}`);
  const more = report.totalIssues > shown.length ? [`  … and ${report.totalIssues - shown.length} more`] : [];
  return new WeftError({
    code: 'WEFT_BAD_INPUT',
    message: [
      `${changes}: ${report.totalIssues} problem${report.totalIssues === 1 ? '' : 's'} (${counts})${report.stopped ? ', stopped at the first (--strict)' : ''}; the store was not changed`,
      ...shown,
      ...more,
    ].join('\n'),
    details: { issues: report.issues, counts: report.counts, totalIssues: report.totalIssues },
  });
}

/**
 * Applies a change set (docs/skb-format.md, "Change sets") to the store in `directory` — `weft
 * update`. The graph, the text index (each upserted node's document, and the relation text of every
 * node whose neighbours or neighbours' names changed), the vector index (the upserted documents
 * embedded with the store's embedder) and the name index (the graph's) change together, as a new
 * store version: whole or not at all, whenever the process dies.
 *
 * When no one has the graph open, the graph is changed where it is, in one transaction of its
 * engine, whose commit is the update's: what the rest of the update needs is written first
 * (`versions/v<N>/update.json`); a process killed before the graph's commit leaves the old version,
 * one killed after it the new, which the next open or update finishes (`finishInterruptedUpdate`:
 * the index version and the manifest). Readers that open the store meanwhile wait for the graph.
 * Otherwise — a reader such as `weft serve` has the graph open, the backend cannot, the change set
 * is large, or the graph is due for compaction — the new version gets a changed copy of the graph,
 * committed by one rename of `store.json`, and readers that opened the store before keep answering
 * from the previous version.
 */
export async function applyChanges(
  directoryArgument: string,
  changesArgument: string,
  options: ApplyChangesOptions = {},
): Promise<AppliedChanges> {
  const started = performance.now();
  const timings: Record<string, number> = {};
  let lapStarted = started;
  const lap = (name: string) => {
    const now = performance.now();
    timings[name] = Math.round(now - lapStarted) / 1000;
    lapStarted = now;
  };
  const directory = resolve(directoryArgument);
  const changesDirectory = resolve(changesArgument);
  await recoverStoreDirectory(directory);
  const manifest = await readManifest(directory);
  const backend = await resolveGraphBackend(manifest.graph.provider, options.graphBackends);
  if (!backend.update)
    throw new WeftError({
      code: 'WEFT_UNSUPPORTED',
      message: `the store's graph backend '${backend.id}' cannot apply changes in place; rebuild the store with weft ingest`,
    });
  const indexPath = manifest.indexes?.text.path ?? '';
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(indexPath))
    throw new WeftError({
      code: 'WEFT_UNSUPPORTED',
      message: `the store's indexes are on object storage (${indexPath}): they cannot take changes in place yet; rebuild the store with weft ingest`,
    });
  const release = await lockForUpdate(directory);
  let staging: string | undefined;
  let session: GraphInPlaceSession | undefined;
  try {
    // An in-place update killed after its graph committed is finished first: it is the base of this one.
    await finishInterruptedUpdate(directory, backend, undefined, options);
    // Read again under the lock: an update that committed meanwhile is the base of this one.
    const base = await readManifest(directory);
    const previousVersion = storeVersion(base);
    const version = previousVersion + 1;
    // Whatever a killed update left behind goes before this one writes its version.
    await collectOldVersions(directory, base);
    if (!base.indexes)
      throw new WeftError({
        code: 'WEFT_UNSUPPORTED',
        message: `${directory} has no text/vector indexes to update; rebuild it with weft ingest`,
      });
    const schema = base.schema;
    // In place when the backend can and no one has the graph open (readers keep their version).
    let copyReason: string | undefined;
    if (options.inPlace === false) copyReason = 'in-place updates turned off (inPlace: false)';
    else if (!backend.updateInPlace) copyReason = `the graph backend '${backend.id}' has no in-place update`;
    else {
      session = await backend.updateInPlace({ location: base.graph.path, baseDirectory: directory });
      if (!session) copyReason = 'the graph is open in another process or opener, or due for compaction';
      else if (session.version !== undefined && session.version !== previousVersion)
        throw new WeftError({
          code: 'WEFT_STORE_FAILED',
          message: `${directory}: the graph records store version ${session.version}, the manifest ${previousVersion}; rebuild the store with weft ingest`,
        });
    }
    const before = session?.graph ?? (await backend.open(base.graph.path, { baseDirectory: directory }));
    let changes: SkbChangeSet;
    let affected: Set<string>;
    let previous: Map<string, SkbNode>;
    let effect: ChangeSetEffect;
    try {
      options.onProgress?.('validate', 0);
      const report = await readChangeSet(
        changesDirectory,
        {
          schema,
          nodeTypes: async (ids) => (await before.doGetNodes(ids)).map((node) => node?.type),
        },
        { strict: options.strict ?? false },
      );
      if (!report.ok || !report.changes) throw invalidChanges(changesArgument, report);
      changes = report.changes;
      lap('validate');
      ({ affected, previous } = await affectedBefore(before, changes));
      effect = await changeSetEffect(before, changes);
      lap('neighbours-before');
    } finally {
      if (!session) await before.close();
    }
    const records =
      changes.nodes.length + changes.edges.length + changes.deleteNodes.length + changes.deleteEdges.length;
    const unchangedOr = (applied: Omit<AppliedChanges, 'seconds' | 'timings'>): AppliedChanges => ({
      ...applied,
      ...(copyReason ? { copyReason } : {}),
      seconds: (performance.now() - started) / 1000,
      timings,
    });
    if (effect.empty)
      return unchangedOr({
        version: previousVersion,
        previousVersion,
        unchanged: true,
        mode: session ? 'in-place' : 'copy',
        manifest: base,
        nodesUpserted: 0,
        nodesDeleted: 0,
        edgesUpserted: 0,
        edgesDeleted: 0,
        edgesDeletedWithNodes: 0,
        rowsRewritten: 0,
        embedded: 0,
      });
    if (session && records > inPlaceMaxRecords) {
      // Each edge is created by a statement of its own in place; a large change set is bulk loaded.
      await session.close();
      session = undefined;
      copyReason = `${records} records: over the ${inPlaceMaxRecords} an update applies in place`;
    }

    staging = join(directory, versionFolder(version));
    await rm(staging, { recursive: true, force: true });
    await mkdir(staging, { recursive: true });
    const state: UpdateState = {
      version,
      changes,
      affected: [...affected],
      previous: [...previous],
      records,
    };
    options.onProgress?.('graph', 0);
    let finished: FinishedVersion;
    if (session) {
      const graph = await session.apply({
        schema,
        changes,
        version,
        counts: base.counts,
        onProgress: (phase, done) => options.onProgress?.(`graph:${phase}`, done),
      });
      for (const [phase, seconds] of Object.entries(graph.timings)) timings[`graph:${phase}`] = seconds;
      await pauseForTest(directory, 'graph-applied');
      // The graph's commit is the update's. What the rest of the update needs is on disk first, so
      // that the next open or update can finish an update killed after the commit.
      await writeUpdateState(directory, { ...state, counts: countsOf(graph) });
      await session.commit();
      // Committed: from here the version folder is the store's, whatever happens.
      staging = undefined;
      lap('graph');
      await pauseForTest(directory, 'graph-committed');
      finished = await finishVersion(
        directory,
        base,
        state,
        session.graph,
        base.graph.path,
        graph,
        options,
        lap,
        timings,
      );
      await pauseForTest(directory, 'manifest-committed');
      // Closing checkpoints the graph (its write-ahead log into the database file).
      await session.close();
      session = undefined;
      lap('checkpoint');
    } else {
      const graph = await backend.update({
        location: base.graph.path,
        baseDirectory: directory,
        directory: staging,
        schema,
        changes,
        version,
        onProgress: (phase, done) => options.onProgress?.(`graph:${phase}`, done),
      });
      lap('graph');
      for (const [phase, seconds] of Object.entries(graph.timings)) timings[`graph:${phase}`] = seconds;
      const graphPath = join(versionFolder(version), graph.location);
      const after = await backend.open(graphPath, { baseDirectory: directory });
      try {
        finished = await finishVersion(
          directory,
          base,
          state,
          after,
          graphPath,
          graph,
          options,
          lap,
          timings,
        );
      } finally {
        await after.close();
      }
      staging = undefined;
    }
    await collectOldVersions(directory, finished.manifest);
    return unchangedOr({
      version,
      previousVersion,
      unchanged: false,
      mode: finished.manifest.graph.path === base.graph.path ? 'in-place' : 'copy',
      manifest: finished.manifest,
      nodesUpserted: changes.nodes.length,
      nodesDeleted: effect.nodesDeleted,
      edgesUpserted: changes.edges.length,
      edgesDeleted: effect.edgesDeleted,
      edgesDeletedWithNodes: effect.edgesDeletedWithNodes,
      rowsRewritten: finished.rowsRewritten,
      embedded: finished.embedded,
      ...(finished.embedding ? { embedding: finished.embedding } : {}),
    });
  } finally {
    // A session not committed is rolled back by its close; one committed is only closed.
    await session?.close();
    if (staging && existsSync(staging)) await rm(staging, { recursive: true, force: true });
    await release();
  }
}

/** What an in-place update needs after its graph's commit: `versions/v<N>/update.json`. */
interface UpdateState {
  readonly version: number;
  readonly changes: SkbChangeSet;
  /** `affectedBefore`'s nodes and previous versions of the upserted nodes, read before the change. */
  readonly affected: readonly string[];
  readonly previous: readonly (readonly [string, SkbNode])[];
  readonly records: number;
  /** The graph's counts with the changes. */
  readonly counts?: StoreManifest['counts'];
}

const countsOf = (graph: GraphBuildResult): StoreManifest['counts'] => ({
  nodes: graph.nodes,
  edges: graph.edges,
  nodesByType: graph.nodesByType,
  edgesByType: graph.edgesByType,
});

const updateStateFile = 'update.json';

async function writeUpdateState(directory: string, state: UpdateState): Promise<void> {
  const path = join(directory, versionFolder(state.version), updateStateFile);
  const handle = await open(path, 'w');
  try {
    await handle.writeFile(JSON.stringify(state));
    // On disk before the graph commits.
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Finishes an in-place update killed after its graph committed (its manifest not yet written): when
 * `versions/v<N+1>/update.json` exists and the graph records version N+1, the index version and the
 * manifest are written from it. Call it holding the update lock; `graph` is the store's graph when
 * the caller has it open (else it is opened read-only). Returns whether it finished one.
 */
export async function finishInterruptedUpdate(
  directory: string,
  backend: GraphBackendV1,
  graph: GraphStoreV1 | undefined,
  options: ApplyChangesOptions = {},
): Promise<boolean> {
  const base = await readManifest(directory);
  const path = join(directory, versionFolder(storeVersion(base) + 1), updateStateFile);
  if (!existsSync(path)) return false;
  let state: UpdateState;
  try {
    state = JSON.parse(await readFile(path, 'utf8')) as UpdateState;
  } catch {
    return false; // Cut short: written before any commit, so the graph did not commit either.
  }
  const opened = graph ? undefined : await backend.open(base.graph.path, { baseDirectory: directory });
  try {
    const reader = graph ?? opened!;
    // The graph did not commit: the old version stands (the folder goes with the next update).
    if (reader.storeVersion !== state.version || !state.counts) return false;
    await finishVersion(
      directory,
      base,
      state,
      reader,
      base.graph.path,
      state.counts,
      options,
      () => undefined,
      {},
    );
    return true;
  } finally {
    await opened?.close();
  }
}

interface FinishedVersion {
  readonly manifest: StoreManifest;
  readonly rowsRewritten: number;
  readonly embedded: number;
  readonly embedding?: EmbeddingStats;
}

/**
 * The rest of an update once its graph holds the changes (`after`, at `graphPath`): the relation
 * text of the nodes it affects, the upserted nodes' embeddings, the LanceDB version
 * (`versions/v<N>/lance`, written anew if a killed attempt left one), and the manifest, committed.
 */
async function finishVersion(
  directory: string,
  base: StoreManifest,
  state: UpdateState,
  after: GraphStoreV1,
  graphPath: string,
  graph: Pick<GraphBuildResult, 'nodes' | 'edges' | 'nodesByType' | 'edgesByType'>,
  options: ApplyChangesOptions,
  lap: (name: string) => void,
  timings: Record<string, number>,
): Promise<FinishedVersion> {
  // Changes are written to the LanceDB table directly (the index seam has no update yet).
  const lancedb = (await loadBackendPackage(lancePackage)) as typeof import('@weft/index-lancedb');
  // Its own phase: 1–2 s of module loading on a loaded machine, which `relations` used to include.
  lap('load-index');
  const indexes = base.indexes!;
  const { changes, version } = state;
  const relationFields = indexes.text.fields?.some((field) => field.name === 'relations') ?? false;
  const affectedStarted = performance.now();
  const { rows: rewritten, nodes: rewrittenNodes } = await affectedAfter(
    after,
    base.schema,
    changes,
    new Set(state.affected),
    new Map(state.previous),
  );
  timings['relations:affected'] = seconds(performance.now() - affectedStarted);
  options.onProgress?.('relations', 0, rewritten.size);
  const relations = relationFields
    ? await relationText(after, base.schema, rewritten, rewrittenNodes, options.relationLimits, timings)
    : undefined;
  lap('relations');
  options.onProgress?.('relations', rewritten.size, rewritten.size);
  options.onProgress?.('embed', 0, changes.nodes.length);
  const upserted = new Map(changes.nodes.map((node) => [node.id, node]));
  const { vectors, stats } = await embedUpserts(directory, indexes, changes.nodes, options);
  const embedded = changes.nodes.length;
  lap('embed');
  options.onProgress?.('embed', embedded, changes.nodes.length);
  // Nodes only affected through their neighbours keep their document and its vector: read back.
  const kept = await lancedb.readLanceNodes(
    join(directory, indexes.text.path),
    [...rewritten].filter((id) => !upserted.has(id)),
  );
  lap('read-rows');
  const upserts: LanceNodeRecord[] = [
    ...changes.nodes.map((node, i) => ({
      ...lanceRecord(node),
      ...(relations ? { relations: relations.text(node.id) } : {}),
      ...(vectors ? { vectors: { vector: vectors[i]! } } : {}),
    })),
    ...kept.map((row) => ({ ...row, ...(relations ? { relations: relations.text(row.id) } : {}) })),
  ];
  options.onProgress?.('index', 0, upserts.length);
  const lanceFolder = join(directory, versionFolder(version), 'lance');
  await rm(lanceFolder, { recursive: true, force: true });
  const lance = await lancedb.updateLanceNodes({
    source: join(directory, indexes.text.path),
    directory: lanceFolder,
    upserts,
    deletions: changes.deleteNodes,
  });
  for (const [phase, seconds] of Object.entries(lance.timings)) timings[`index:${phase}`] = seconds;
  lap('index');
  options.onProgress?.('index', upserts.length, upserts.length);
  const lancePath = join(versionFolder(version), 'lance');
  const next: StoreManifest = {
    ...base,
    counts: {
      nodes: graph.nodes,
      edges: graph.edges,
      nodesByType: graph.nodesByType,
      edgesByType: graph.edgesByType,
    },
    graph: { provider: base.graph.provider, path: graphPath },
    indexes: {
      ...indexes,
      text: { ...indexes.text, path: lancePath },
      ...(indexes.vector ? { vector: { ...indexes.vector, path: lancePath } } : {}),
    },
    storeVersion: version,
    updatedAt: new Date().toISOString(),
    changedRecords: (base.changedRecords ?? 0) + state.records,
    // What readers of the version before may still use: kept until the next commit.
    retainedPaths: manifestPaths(base),
  };
  await options.beforeCommit?.();
  await commitManifest(directory, next);
  await rm(join(directory, versionFolder(version), updateStateFile), { force: true });
  lap('commit');
  return { manifest: next, rowsRewritten: upserts.length, embedded, ...(stats ? { embedding: stats } : {}) };
}

/** What a change set does to a store, as `changeSetEffect` finds it before applying it. */
export interface ChangeSetEffect {
  /** Nothing changes: no upsert, and every deletion names a node or an edge the store does not hold. */
  readonly empty: boolean;
  readonly nodesUpserted: number;
  readonly edgesUpserted: number;
  /** Nodes of the store the change set deletes. */
  readonly nodesDeleted: number;
  /** Edges of the store that go: those it deletes by name and those touching a deleted node. */
  readonly edgesDeleted: number;
  /** Of `edgesDeleted`, those that go with a deleted node (and are not deleted by name). */
  readonly edgesDeletedWithNodes: number;
}

/**
 * What `changes` would do to the store whose graph is `graph` — the one definition of an empty change
 * set, used by `applyChanges` (so `weft update` and `POST /changes` agree): a change set with no
 * upsert whose deletions name only nodes and edges the store does not hold changes nothing, and
 * creates no version. Upserts count as changes even when they repeat what is stored.
 */
export async function changeSetEffect(graph: GraphStoreV1, changes: SkbChangeSet): Promise<ChangeSetEffect> {
  const held = await graph.doGetNodes([...changes.deleteNodes]);
  const deletedNodes = changes.deleteNodes.filter((_, i) => held[i] !== undefined);
  const deleted = new Set(deletedNodes);
  const edgeKey = (edge: SkbEdge) => `${edge.src}\u0000${edge.type}\u0000${edge.dst}`;
  const withNodes = new Set((await edgesTouching(graph, deletedNodes)).map(edgeKey));
  const named = new Set(changes.deleteEdges.map(edgeKey));
  const sources = [...new Set(changes.deleteEdges.map((edge) => edge.src))];
  const existing = new Set(
    (await edgesTouching(graph, sources)).map(edgeKey).filter((key) => named.has(key)),
  );
  const edgesDeletedWithNodes = [...withNodes].filter((key) => !existing.has(key)).length;
  const edgesDeleted = existing.size + edgesDeletedWithNodes;
  return {
    empty:
      changes.nodes.length === 0 && changes.edges.length === 0 && deleted.size === 0 && existing.size === 0,
    nodesUpserted: changes.nodes.length,
    edgesUpserted: changes.edges.length,
    nodesDeleted: deleted.size,
    edgesDeleted,
    edgesDeletedWithNodes,
  };
}

/** Every edge touching `seeds`, either way. */
function edgesTouching(graph: GraphStoreV1, seeds: readonly string[]): Promise<SkbEdge[]> {
  if (seeds.length === 0) return Promise.resolve([]);
  return graph.supportsCypher ? edgesInStoredOrder(graph, seeds) : edgesOfNeighbours(graph, seeds);
}

function lanceRecord(node: SkbNode): LanceNodeRecord {
  return {
    id: node.id,
    type: node.type,
    name: node.name,
    ...(node.aliases ? { aliases: node.aliases } : {}),
    text: node.text,
  };
}

/**
 * Nodes whose relation text the change set may change, as seen in the graph before it: the
 * neighbours of deleted nodes and the ends of deleted edges. Also the upserted nodes that
 * exist already, as they were (a renamed node changes its neighbours' relation text, a node whose
 * text changed that of neighbours which quote it).
 */
async function affectedBefore(
  graph: GraphStoreV1,
  changes: SkbChangeSet,
): Promise<{ affected: Set<string>; previous: Map<string, SkbNode> }> {
  const affected = new Set<string>();
  for (const edge of changes.deleteEdges) affected.add(edge.src).add(edge.dst);
  for (const neighbour of await neighbourIds(graph, changes.deleteNodes)) affected.add(neighbour);
  const previous = new Map<string, SkbNode>();
  const ids = changes.nodes.map((node) => node.id);
  (await graph.doGetNodes(ids)).forEach((node, i) => {
    if (node) previous.set(ids[i]!, node);
  });
  return { affected, previous };
}

/**
 * Every node whose index row is written again, as seen in the graph after the change: the upserted
 * nodes, and — when they still exist and have relation text (target types, and nodes described by
 * their neighbours) — the ends of new edges, the neighbours of renamed nodes and the nodes of
 * `affectedBefore`; and the neighbours of nodes whose text changed that quote their texts.
 */
async function affectedAfter(
  graph: GraphStoreV1,
  schema: SkbSchema,
  changes: SkbChangeSet,
  affected: Set<string>,
  previous: Map<string, SkbNode>,
): Promise<{ rows: Set<string>; nodes: Map<string, SkbNode> }> {
  const rows = new Set(affected);
  for (const node of changes.nodes) rows.add(node.id);
  for (const edge of changes.edges) rows.add(edge.src).add(edge.dst);
  const renamed = changes.nodes
    .filter((node) => previous.has(node.id) && previous.get(node.id)!.name !== node.name)
    .map((node) => node.id);
  for (const neighbour of await neighbourIds(graph, renamed)) rows.add(neighbour);
  // Only some nodes quote their neighbours' texts (`describedByNeighbours`).
  const retexted = changes.nodes
    .filter((node) => previous.has(node.id) && previous.get(node.id)!.text !== node.text)
    .map((node) => node.id);
  const quoting = new Set<string>();
  for (const neighbour of await neighbourIds(graph, retexted))
    if (!rows.has(neighbour)) quoting.add(neighbour);
  const targets = schema.targetTypes ? new Set(schema.targetTypes) : undefined;
  const upserted = new Set(changes.nodes.map((node) => node.id));
  const ids = [...rows, ...quoting];
  const nodes = await graph.doGetNodes(ids);
  const read = new Map<string, SkbNode>();
  const kept = ids.filter((id, i) => {
    const node = nodes[i];
    if (node === undefined) return false;
    read.set(id, node);
    const quotes = describedByNeighbours(node, targets);
    if (quoting.has(id)) return quotes;
    return upserted.has(id) || !targets || targets.has(node.type) || quotes;
  });
  return { rows: new Set(kept), nodes: read };
}

/**
 * The relation text of `ids` in the changed graph: `RelationDocuments` built from their
 * neighbourhoods, so the same code makes the same text as an ingest. Where a group is capped, which
 * neighbours it keeps follows the order the edges are read in: an ingest reads the bundle's order;
 * here they are read in the order the graph stores them (Kùzu: by node, then as added), which is
 * not the bundle's — for such nodes the text may differ from an ingest's (docs/skb-format.md).
 */
async function relationText(
  graph: GraphStoreV1,
  schema: SkbSchema,
  ids: ReadonlySet<string>,
  known: ReadonlyMap<string, SkbNode>,
  limits: RelationDocumentOptions | undefined,
  timings: Record<string, number>,
): Promise<RelationDocuments> {
  const seeds = [...ids];
  let started = performance.now();
  const all = graph.supportsCypher
    ? await edgesInStoredOrder(graph, seeds)
    : await edgesOfNeighbours(graph, seeds);
  timings['relations:edges'] = seconds(performance.now() - started);
  started = performance.now();
  const edges = withinCaps(all, ids, limits);
  const nodeIds = [...new Set([...seeds, ...edges.flatMap((edge) => [edge.src, edge.dst])])];
  // The seeds were read by `affectedAfter` (the update's graph keeps no node cache): only their
  // neighbours are looked up.
  const toRead = nodeIds.filter((id) => !known.has(id));
  const read = new Map<string, SkbNode>();
  (await graph.doGetNodes(toRead)).forEach((node, i) => {
    if (node) read.set(toRead[i]!, node);
  });
  const nodes = nodeIds.flatMap((id) => {
    const node = known.get(id) ?? read.get(id);
    return node ? [node] : [];
  });
  timings['relations:nodes'] = seconds(performance.now() - started);
  return RelationDocuments.build(schema, toAsync(nodes), toAsync(edges), limits);
}

/**
 * The edges that can reach a seed's relation text: per seed, edge type and direction, the first
 * `outLimit` / `inLimit` (`RelationDocuments`' caps) in order. The order is kept, so the caps keep
 * the same neighbours; fetching only their nodes spares reading every neighbour of a hub.
 */
function withinCaps(
  edges: readonly SkbEdge[],
  seeds: ReadonlySet<string>,
  limits: RelationDocumentOptions | undefined,
): SkbEdge[] {
  const outLimit = limits?.outLimit ?? 50;
  const inLimit = limits?.inLimit ?? 20;
  const counts = new Map<string, number>();
  const take = (key: string, limit: number) => {
    const count = counts.get(key) ?? 0;
    if (count >= limit) return false;
    counts.set(key, count + 1);
    return true;
  };
  return edges.filter((edge) => {
    // Both sides are counted: an edge between two seeds may be in one's caps and not the other's.
    const out = seeds.has(edge.src) && take(`${edge.src}\u0000${edge.type}\u0000out`, outLimit);
    const into = seeds.has(edge.dst) && take(`${edge.dst}\u0000${edge.type}\u0000in`, inLimit);
    return out || into;
  });
}

/** Ids per Cypher query: bounds the size of one `IN` list. */
const idsPerQuery = 5_000;

/**
 * The ids of the nodes joined to `seeds` by an edge, either way. With Cypher, one query from the
 * seeds' primary keys: `doNeighbors` loads the graph's whole adjacency first (a scan of every edge
 * when the graph has no saved one, as after each update), which is the store's size, not the change's.
 */
async function neighbourIds(graph: GraphStoreV1, seeds: readonly string[]): Promise<Set<string>> {
  const ids = new Set<string>();
  if (seeds.length === 0) return ids;
  if (!graph.supportsCypher) {
    for (const neighbour of await graph.doNeighbors({ seeds, direction: 'both' })) ids.add(neighbour.node);
    return ids;
  }
  for (const [, rows] of await perSeedOrBatched(
    graph,
    seeds,
    'MATCH (a:Node {id: $id})-[:Edge]-(b:Node) RETURN b.id',
    'UNWIND $ids AS id MATCH (a:Node {id: id})-[:Edge]-(b:Node) RETURN b.id',
  ))
    for (const [id] of rows) ids.add(String(id));
  return ids;
}

/**
 * Up to this many seeds, a query runs once per seed: Kùzu 0.11 plans `UNWIND $ids … MATCH (a {id})-…-(b)`
 * with a scan of every node for `b`, seconds a query at 10^6 nodes (15 s for 20 seeds' out-edges,
 * against 0.2 s for 20 queries of one seed each); past it, batches of `idsPerQuery`.
 */
const perSeedQueries = 2_000;

/** Runs `single` once per seed (`$id`) or `batched` per batch of seeds (`$ids`); the rows of each. */
async function perSeedOrBatched(
  graph: GraphStoreV1,
  seeds: readonly string[],
  single: string,
  batched: string,
): Promise<[string, readonly (readonly unknown[])[]][]> {
  const options = { maxRows: Number.MAX_SAFE_INTEGER, timeoutMs: 600_000 };
  const out: [string, readonly (readonly unknown[])[]][] = [];
  if (seeds.length <= perSeedQueries) {
    for (const id of seeds)
      out.push([id, (await graph.doCypher(single, { ...options, params: { id } })).rows]);
    return out;
  }
  for (let i = 0; i < seeds.length; i += idsPerQuery) {
    const ids = seeds.slice(i, i + idsPerQuery);
    out.push(['', (await graph.doCypher(batched, { ...options, params: { ids } })).rows]);
  }
  return out;
}

/** Every edge touching `seeds`, in the order the graph stored the edges. */
async function edgesInStoredOrder(graph: GraphStoreV1, seeds: readonly string[]): Promise<SkbEdge[]> {
  const byOffset = new Map<number, SkbEdge>();
  // One query per direction, each starting from the seeds' primary keys (an `IN` test on both
  // ends scanned every edge: 10 s on 724,000 edges, against 0.4 s).
  for (const pattern of ['(a:Node {id: $id})-[e:Edge]->(b:Node)', '(b:Node {id: $id})<-[e:Edge]-(a:Node)']) {
    const returned = 'RETURN a.id, e.type, b.id, offset(id(e))';
    for (const [, rows] of await perSeedOrBatched(
      graph,
      seeds,
      `MATCH ${pattern} ${returned}`,
      `UNWIND $ids AS id MATCH ${pattern.replace('$id', 'id')} ${returned}`,
    ))
      for (const [src, type, dst, offset] of rows)
        byOffset.set(Number(offset), { src: String(src), type: String(type), dst: String(dst) });
  }
  return [...byOffset].sort((a, b) => a[0] - b[0]).map(([, edge]) => edge);
}

/** Every edge touching `seeds`, for graphs without Cypher (the neighbours' order is the store's). */
async function edgesOfNeighbours(graph: GraphStoreV1, seeds: readonly string[]): Promise<SkbEdge[]> {
  const neighbours = seeds.length > 0 ? await graph.doNeighbors({ seeds, direction: 'both' }) : [];
  const edges = new Map<string, SkbEdge>();
  for (const n of neighbours) {
    const edge =
      n.direction === 'out'
        ? { src: n.seed, type: n.edgeType, dst: n.node }
        : { src: n.node, type: n.edgeType, dst: n.seed };
    // An edge between two seeds is found from both ends; it is one edge.
    edges.set(`${edge.src}\u0000${edge.type}\u0000${edge.dst}`, edge);
  }
  return [...edges.values()];
}

/** Milliseconds as seconds, to the millisecond (as the update's other timings). */
function seconds(ms: number): number {
  return Math.round(ms) / 1000;
}

async function* toAsync<T>(items: Iterable<T>): AsyncGenerator<T> {
  yield* items;
}

/**
 * The embeddings of the upserted nodes with the store's embedder (undefined for a store without
 * vectors); a hosted embedder's through the embedding cache.
 */
async function embedUpserts(
  directory: string,
  indexes: NonNullable<StoreManifest['indexes']>,
  nodes: readonly SkbNode[],
  options: ApplyChangesOptions,
): Promise<{ vectors: ArrayLike<number>[] | undefined; stats?: EmbeddingStats }> {
  if (!indexes.vector) return { vectors: undefined };
  const spec =
    indexes.vector.embedderSpec ??
    (indexes.vector.embedder.startsWith('local:') ? 'local' : indexes.vector.embedder);
  const texts = nodes.map((node) => embeddingText(node));
  if (parseEmbedderSpec(spec).kind === 'local') {
    if (nodes.length === 0) return { vectors: [] };
    const model = await createEmbeddingModel(spec, { localDirectory: join(directory, localEmbedderPath) });
    return { vectors: await embedTexts(model, texts) };
  }
  const model = await createEmbeddingModel(spec);
  const folder =
    options.embeddingCache === false
      ? undefined
      : resolve(directory, options.embeddingCache ?? embeddingCacheFolder);
  const cache = folder === undefined || nodes.length === 0 ? undefined : await EmbeddingCache.open(folder);
  try {
    const embedder = new CachedEmbedder(model, {
      ...options.remoteEmbedding,
      namespace: remoteEmbedderNamespace(spec, model),
      dimensions: indexes.vector.dimensions,
      ...(cache ? { cache } : {}),
      ...(options.onEmbeddingRetry ? { onRetry: options.onEmbeddingRetry } : {}),
      // The embed phase's progress (applyChanges reports its start and end): texts as they get vectors.
      onProgress: (done) => options.onProgress?.('embed', done, texts.length),
    });
    const vectors = await embedder.embed(texts);
    if (vectors.some((vector) => vector.length !== indexes.vector!.dimensions))
      throw new WeftError({
        code: 'WEFT_EMBEDDER_MISMATCH',
        message: `${spec} now returns vectors of another size than the store's ${indexes.vector.dimensions}; rebuild the store with weft ingest`,
      });
    return { vectors, stats: embedder.statistics };
  } finally {
    cache?.close();
  }
}
