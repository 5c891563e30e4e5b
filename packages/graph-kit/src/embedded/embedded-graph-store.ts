import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { assertReadOnlyCypher, toWeftError, WeftError } from '@weft/kit';
import type {
  CypherParam,
  CypherResult,
  GraphCypherOptions,
  GraphLookupOptions,
  GraphNeighbor,
  GraphNeighborsOptions,
  GraphSampleOptions,
  GraphStats,
  GraphStoreV1,
  NameMatch,
  SkbNode,
  SkbPropValue,
  SkbSchema,
} from '@weft/spec';
import { CsrAdjacency } from '../csr-adjacency.ts';
import { KeptStructures } from '../kept-structures.ts';
import { NameIndex } from '../name-index.ts';
import { NodeCache } from '../node-cache.ts';
import { ConnectionPool } from './connection-pool.ts';
import type { EmbeddedEngine, EngineDatabase, EngineQueryResult, EngineValue } from './engine.ts';
import { embeddedGraphStats } from './graph-stats.ts';
import { drain } from './query.ts';

export interface EmbeddedGraphStoreOptions {
  /** Open for writing (default false: read-only, which several processes may do at once). */
  readonly readWrite?: boolean;
  /** Connections in the pool; queries beyond it wait (default 4). */
  readonly connections?: number;
  /** Buffer pool in bytes (default 1 GiB; Kùzu's own default is most of the machine's RAM). */
  readonly bufferPoolSize?: number;
  /** Timeout of `doCypher` queries without `timeoutMs` (default 30 s). */
  readonly defaultTimeoutMs?: number;
  /** Row cap of `doCypher` queries without `maxRows` (default 10,000). */
  readonly defaultMaxRows?: number;
  /**
   * Save the adjacency and the name index beside the database once they have been built, and read
   * them from there while the database is unchanged (default true): a cold process then skips the
   * scans of every edge and every name (seconds each at 10^6 nodes).
   */
  readonly persistDerived?: boolean;
  /**
   * When to load the in-memory adjacency that answers `doNeighbors`: `'lazy'` (default) on the
   * first call that needs it, `'open'` during `open`. Lazy keeps opening (and `weft query`
   * start-up) at a few milliseconds; the first expansion pays the load (WordNet ~0.5 s).
   */
  readonly adjacency?: 'lazy' | 'open';
  /** Nodes kept by `doGetNodes` between calls (default 10,000; 0 = no cache). */
  readonly nodeCacheSize?: number;
}

const idBatch = 10_000;
/** Up to this many uncached ids (or nodes/400, when known) are fetched by primary key; more through one scan. */
const pointLookupLimit = 256;
const nodeColumns =
  'n.id AS id, n.type AS type, n.name AS name, n.aliases AS aliases, n.text AS text, n.props AS props';
const noTimeoutMs = 2_147_483_647;

/**
 * The databases this process has open, by path: how many read openers, and whether one is open
 * for an in-place update. The engines lock a database file per process (POSIX locks), so a second
 * opener in the same process is not refused by the engine: these are its locks within the process.
 */
const openInProcess = new Map<string, { readers: number; updating: boolean }>();

function entry(path: string): { readers: number; updating: boolean } {
  let found = openInProcess.get(path);
  if (!found) {
    found = { readers: 0, updating: false };
    openInProcess.set(path, found);
  }
  return found;
}

function leave(path: string, update: boolean): void {
  const found = openInProcess.get(path);
  if (!found) return;
  if (update) found.updating = false;
  else found.readers = Math.max(0, found.readers - 1);
  if (found.readers === 0 && !found.updating) openInProcess.delete(path);
}

/** The engine refused to open a database because another process holds its lock. */
function lockRefused(error: unknown): boolean {
  return /could not set lock|lock on file/i.test(error instanceof Error ? error.message : String(error));
}

/** How long an opener waits for an in-place update in this process to finish before failing. */
const inProcessUpdateWaitMs = 600_000;

/**
 * The Weft graph store on an embedded Kùzu-API engine (Kùzu, LadybugDB); the engine packages
 * subclass it (`KuzuGraphStore`, `LadybugGraphStore`). Read-only by default.
 */
export class EmbeddedGraphStore implements GraphStoreV1 {
  readonly specificationVersion = 'v1';
  readonly provider: string;
  readonly supportsCypher = true;
  readonly path: string;
  protected readonly engine: EmbeddedEngine;
  private readonly db: EngineDatabase;
  private readonly pool: ConnectionPool;
  private readonly options: EmbeddedGraphStoreOptions;
  private schema: SkbSchema | undefined;
  /** The adjacency and name index, kept beside the database while it is unchanged. */
  private readonly kept: KeptStructures;
  private readonly nodeCache: NodeCache;
  private stats: Promise<GraphStats> | undefined;
  private closed = false;
  /** Opened by `openForUpdate`: registered as the process's in-place updater of `path`. */
  private forUpdate = false;
  private _storeVersion: number | undefined;
  /** More ids than `pointLookupLimit` fetched by point lookups (an update's store: `readMeta`). */
  private pointLookupCeiling = 0;

  protected constructor(
    engine: EmbeddedEngine,
    path: string,
    db: EngineDatabase,
    options: EmbeddedGraphStoreOptions,
  ) {
    this.engine = engine;
    this.provider = engine.id;
    this.path = path;
    this.db = db;
    this.options = options;
    this.nodeCache = new NodeCache(options.nodeCacheSize ?? 10_000);
    this.pool = new ConnectionPool(engine, db, options.connections ?? 4);
    this.kept = new KeptStructures(
      () =>
        options.persistDerived === false
          ? undefined
          : { directory: dirname(path), stamp: databaseStamp(path) },
      { adjacency: () => this.scanAdjacency(), names: () => this.scanNames() },
    );
  }

  /**
   * Opens the graph in `directory` (or the database file itself) with `engine`; `create` makes the
   * store object (the engine package's subclass). While this process has the graph open for an
   * in-place update (`openForUpdate`), it waits for that to end. Another process's update holding
   * the graph fails it with `WEFT_STORE_FAILED` whose `details.busy` is true.
   */
  protected static async openWith<T extends EmbeddedGraphStore>(
    engine: EmbeddedEngine,
    directory: string,
    options: EmbeddedGraphStoreOptions,
    create: (path: string, db: EngineDatabase) => T,
  ): Promise<T> {
    const path = databasePath(engine, directory);
    for (const started = performance.now(); openInProcess.get(path)?.updating; ) {
      if (performance.now() - started > inProcessUpdateWaitMs)
        throw new WeftError({
          code: 'WEFT_STORE_FAILED',
          message: `${path} is being updated in place by this process`,
          details: { busy: true },
        });
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await engine.load();
    const db = engine.openDatabase(path, {
      readOnly: !options.readWrite,
      bufferPoolSize: options.bufferPoolSize ?? 1 << 30,
    });
    try {
      await db.init();
    } catch (error) {
      await db.close().catch(() => undefined);
      throw new WeftError({
        code: 'WEFT_STORE_FAILED',
        message: `cannot open the ${engine.label} graph at ${path}: ${error instanceof Error ? error.message : String(error)}`,
        cause: error,
        ...(lockRefused(error) ? { details: { busy: true } } : {}),
      });
    }
    entry(path).readers++;
    const store = create(path, db);
    try {
      await store.readMeta();
      if (options.adjacency === 'open') await store.loadAdjacency();
    } catch (error) {
      await store.close();
      throw toWeftError(error, 'WEFT_STORE_FAILED', `cannot open the ${engine.label} graph at ${path}`);
    }
    return store;
  }

  /**
   * Opens the graph read-write for an in-place update (`updateInPlace` of the backend): one
   * connection, so that every read goes through the update's transaction, no node cache and no
   * saved structures. Resolves to `undefined` when the graph is open elsewhere — in this process
   * (any opener) or in another (the engine's lock) — as an update must not change it under readers.
   */
  static async openForUpdate(
    engine: EmbeddedEngine,
    directory: string,
  ): Promise<EmbeddedGraphStore | undefined> {
    const path = databasePath(engine, directory);
    const here = openInProcess.get(path);
    if (here && (here.readers > 0 || here.updating)) return undefined;
    entry(path).updating = true;
    await engine.load();
    let db: EngineDatabase | undefined;
    try {
      db = engine.openDatabase(path, { readOnly: false, bufferPoolSize: 1 << 30 });
      await db.init();
    } catch (error) {
      await db?.close().catch(() => undefined);
      leave(path, true);
      if (lockRefused(error)) return undefined;
      throw toWeftError(
        error,
        'WEFT_STORE_FAILED',
        `cannot open the ${engine.label} graph at ${path} for writing`,
      );
    }
    const options: EmbeddedGraphStoreOptions = { connections: 1, nodeCacheSize: 0, persistDerived: false };
    const store = new EmbeddedGraphStore(engine, path, db, options);
    store.forUpdate = true;
    try {
      await store.readMeta();
    } catch (error) {
      await store.close();
      throw toWeftError(error, 'WEFT_STORE_FAILED', `cannot open the ${engine.label} graph at ${path}`);
    }
    return store;
  }

  /** Reads the schema and the store version recorded in `WeftMeta`. */
  private async readMeta(): Promise<void> {
    const rows = await this.pool.query(
      "MATCH (m:WeftMeta) WHERE m.key = 'schema' OR m.key = 'storeVersion' OR m.key = 'counts' RETURN m.key AS key, m.value AS value",
      {},
    );
    const value = rows.find((row) => row.key === 'schema')?.value;
    if (typeof value !== 'string')
      throw new WeftError({ code: 'WEFT_STORE_FAILED', message: `${this.path} holds no Weft schema` });
    this.schema = JSON.parse(value) as SkbSchema;
    const version = Number(rows.find((row) => row.key === 'storeVersion')?.value);
    this._storeVersion = Number.isInteger(version) ? version : undefined;
    if (this.forUpdate) {
      // An update reads many nodes before any adjacency is loaded: the count picks point lookups
      // over a scan of the node table (`doGetNodes`), as the adjacency's count would.
      const counts = rows.find((row) => row.key === 'counts')?.value;
      const nodes =
        typeof counts === 'string' ? Number((JSON.parse(counts) as { nodes?: unknown }).nodes) : NaN;
      // Point lookups cost ~2 ms an id at 10^6 nodes on a loaded machine, a scan ~30 s: up to a
      // fiftieth of the nodes are looked up (the adjacency's count makes it a four-hundredth).
      if (Number.isFinite(nodes)) this.pointLookupCeiling = nodes / 50;
    }
  }

  /** The store version recorded by the last update of this graph, when one recorded it. */
  get storeVersion(): number | undefined {
    return this._storeVersion;
  }

  /** @internal The connection pool (one connection for a store opened by `openForUpdate`). */
  get connectionPool(): ConnectionPool {
    return this.pool;
  }

  /** The in-memory adjacency (loaded once; see the README for why it sits beside Kùzu). */
  loadAdjacency(): Promise<CsrAdjacency> {
    return this.kept.loadAdjacency();
  }

  /** Load time and size of the adjacency, once loaded (for benchmarks and diagnostics). */
  get adjacencyInfo(): KeptStructures['adjacencyInfo'] {
    return this.kept.adjacencyInfo;
  }

  private scanAdjacency(): Promise<CsrAdjacency> {
    return CsrAdjacency.load(
      (statement, params, onRow) => this.pool.each(statement, params, onRow),
      this.schema!.nodeTypes.map((t) => t.name),
      this.schema!.edgeTypes.map((t) => t.name),
    );
  }

  private check(signal?: AbortSignal): void {
    if (this.closed) throw new WeftError({ code: 'WEFT_STORE_FAILED', message: 'the graph store is closed' });
    if (signal?.aborted)
      throw new WeftError({ code: 'WEFT_ABORTED', message: 'aborted', cause: signal.reason });
  }

  async doGetSchema(): Promise<SkbSchema> {
    this.check();
    return this.schema!;
  }

  async doGetNodes(
    ids: readonly string[],
    options: { readonly abortSignal?: AbortSignal } = {},
  ): Promise<(SkbNode | undefined)[]> {
    this.check(options.abortSignal);
    const found = new Map<string, SkbNode>();
    const missing: string[] = [];
    for (const id of new Set(ids)) {
      const cached = this.nodeCache.get(id);
      if (cached) found.set(id, cached);
      // Once the adjacency is loaded, an unknown id needs no query at all.
      else if (!this.kept.loaded || this.kept.loaded.offsetOf(id) !== undefined) missing.push(id);
    }
    // A batch costs about one table scan (~1.5 µs a node), a key lookup ~0.4–0.5 ms an id.
    const nodeCount = this.kept.loaded?.nodeCount ?? 0;
    if (
      missing.length > 0 &&
      missing.length <= Math.max(pointLookupLimit, nodeCount / 400, this.pointLookupCeiling)
    ) {
      // Primary-key lookups (hash index, ~0.4 ms each) spread over the pool's connections: Kùzu
      // evaluates `id IN $list` by scanning the whole table (~200 ms on WordNet, seconds at 1M nodes).
      const workers = Math.min(this.pool.size, Math.ceil(missing.length / 4));
      await Promise.all(
        Array.from({ length: workers }, (_, worker) =>
          this.pool.withLease(async (lease) => {
            try {
              const prepared = await this.pool.prepared(
                lease,
                `MATCH (n:Node) WHERE n.id = $id RETURN ${nodeColumns}`,
              );
              for (let i = worker; i < missing.length; i += workers) {
                this.check(options.abortSignal);
                for (const row of drain(await lease.connection.execute(prepared, { id: missing[i]! })))
                  found.set(row.id as string, toNode(row));
              }
            } catch (error) {
              throw toWeftError(error, 'WEFT_STORE_FAILED', `${this.engine.label} query failed`);
            }
          }),
        ),
      );
    } else {
      // Many ids: one join per batch costs about one table scan, whatever the batch size.
      // Empty list parameters crash Kùzu 0.11.3: never send one.
      for (let i = 0; i < missing.length; i += idBatch) {
        const rows = await this.pool.query(
          `UNWIND CAST($ids AS STRING[]) AS x MATCH (n:Node) WHERE n.id = x RETURN ${nodeColumns}`,
          { ids: missing.slice(i, i + idBatch) },
        );
        for (const row of rows) found.set(row.id as string, toNode(row));
        this.check(options.abortSignal);
      }
    }
    for (const id of missing) {
      const node = found.get(id);
      if (node) this.nodeCache.set(id, node);
    }
    return ids.map((id) => found.get(id));
  }

  async doNeighbors(options: GraphNeighborsOptions): Promise<GraphNeighbor[]> {
    this.check(options.abortSignal);
    if (options.seeds.length === 0 || options.edgeTypes?.length === 0 || options.nodeTypes?.length === 0)
      return [];
    // Answered from the in-memory adjacency: a Kùzu expansion query costs 50–200 ms on WordNet and
    // over a second at 1M nodes, where this is microseconds per seed (README).
    const adjacency = await this.loadAdjacency();
    this.check(options.abortSignal);
    return adjacency.expand(options);
  }

  /** A deterministic sample of node ids, drawn from the in-memory adjacency (no Kùzu query). */
  async doSampleNodes(options: GraphSampleOptions): Promise<string[]> {
    this.check(options.abortSignal);
    return (await this.loadAdjacency()).sample(options);
  }

  /** Every id, name and alias, in one scan grouped by type, into a name index. */
  private async scanNames(): Promise<NameIndex> {
    const index = new NameIndex();
    await this.pool.each(
      // coalesce: `collect` skips NULLs, which would misalign the parallel lists.
      "MATCH (n:Node) RETURN n.type AS type, collect(n.id) AS ids, collect(coalesce(n.name, '')) AS names, collect(coalesce(n.aliases, CAST([] AS STRING[]))) AS aliases",
      {},
      (row) => {
        const type = row.type as string;
        const ids = row.ids as string[];
        const names = row.names as (string | null)[];
        const aliases = row.aliases as (string[] | null)[];
        for (let i = 0; i < ids.length; i++)
          index.add({ id: ids[i]!, type, name: names[i] ?? '', aliases: aliases[i] ?? [] });
      },
    );
    return index;
  }

  async doLookup(names: readonly string[], options: GraphLookupOptions = {}): Promise<NameMatch[][]> {
    this.check(options.abortSignal);
    if (names.length === 0) return [];
    const index = await this.kept.nameIndex();
    const lookup = {
      limit: options.limit ?? 10,
      fuzzy: options.fuzzy !== false,
      ...(options.nodeTypes ? { nodeTypes: options.nodeTypes } : {}),
    };
    const matches = names.map((name) => index.lookup(name, lookup));
    this.kept.keepNames(index);
    return matches;
  }

  async doCypher(query: string, options: GraphCypherOptions = {}): Promise<CypherResult> {
    this.check(options.abortSignal);
    assertReadOnlyCypher(query);
    const params: Record<string, EngineValue> = {};
    for (const [name, value] of Object.entries(options.params ?? {})) params[name] = checkParam(name, value);
    const maxRows = options.maxRows ?? this.options.defaultMaxRows ?? 10_000;
    const timeoutMs = options.timeoutMs ?? this.options.defaultTimeoutMs ?? 30_000;
    const lease = await this.pool.acquire();
    let results: EngineQueryResult[] = [];
    try {
      const prepared = await lease.connection.prepare(query);
      if (!prepared.isSuccess())
        throw new WeftError({
          code: 'WEFT_BAD_INPUT',
          message: `invalid Cypher: ${prepared.getErrorMessage()}`,
        });
      lease.connection.setQueryTimeout(timeoutMs);
      const started = performance.now();
      try {
        const result = await lease.connection.execute(prepared, params);
        results = Array.isArray(result) ? result : [result];
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (/interrupt/i.test(message) || performance.now() - started >= timeoutMs) {
          throw new WeftError({
            code: 'WEFT_TIMEOUT',
            message: `Cypher query timed out after ${timeoutMs} ms`,
            cause: error,
          });
        }
        throw new WeftError({
          code: /^(Parser|Binder) exception/.test(message) ? 'WEFT_BAD_INPUT' : 'WEFT_STORE_FAILED',
          message,
          cause: error,
        });
      }
      const last = results[results.length - 1]!;
      const columns = last.getColumnNamesSync();
      const rows: unknown[][] = [];
      let truncated = false;
      while (last.hasNext()) {
        if (rows.length >= maxRows) {
          truncated = true;
          break;
        }
        const row = last.getNextSync() as Record<string, unknown>;
        rows.push(columns.map((column) => row[column]));
      }
      return { columns, rows, truncated };
    } finally {
      for (const result of results) result.close();
      // 0 is refused; the store's own queries run without a practical limit.
      lease.connection.setQueryTimeout(noTimeoutMs);
      this.pool.release(lease);
    }
  }

  async doStats(): Promise<GraphStats> {
    this.check();
    this.stats ??= embeddedGraphStats(this.pool);
    return this.stats;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.nodeCache.clear();
    await this.kept.settled();
    try {
      await this.pool.close();
      await this.db.close();
    } finally {
      leave(this.path, this.forUpdate);
    }
  }
}

/** The database file of the graph in `directory` (or `directory` itself when it is the file). */
function databasePath(engine: EmbeddedEngine, directory: string): string {
  const path =
    existsSync(directory) && statSync(directory).isDirectory()
      ? join(directory, engine.databaseFileName)
      : directory;
  if (!existsSync(path))
    throw new WeftError({ code: 'WEFT_NOT_FOUND', message: `no ${engine.label} graph at ${path}` });
  return resolve(path);
}

/**
 * Names the state of the database at `path` (a file, or a folder for older engines): size and mtime,
 * and those of its write-ahead log when it has one (changes not yet checkpointed live there).
 */
function databaseStamp(path: string): string {
  return [path, `${path}.wal`]
    .filter((file) => existsSync(file))
    .map((file) => {
      const stat = statSync(file);
      return `${stat.size}:${stat.mtimeMs}`;
    })
    .join('/');
}

function checkParam(name: string, value: CypherParam): CypherParam {
  if (Array.isArray(value)) {
    // An empty list parameter crashes Kùzu 0.11.3 (segfault) in `IN $list`; refuse it in JS.
    if (value.length === 0) {
      throw new WeftError({
        code: 'WEFT_BAD_INPUT',
        message: `parameter $${name} is an empty list; Kùzu cannot take empty list parameters — short-circuit instead`,
      });
    }
    for (const item of value) checkParam(name, item);
  }
  return value;
}

function toNode(row: Record<string, unknown>): SkbNode {
  const aliases = (row.aliases as string[] | null) ?? [];
  const props =
    typeof row.props === 'string' && row.props.length > 0
      ? (JSON.parse(row.props) as Record<string, SkbPropValue>)
      : undefined;
  return {
    id: row.id as string,
    type: row.type as string,
    name: (row.name as string | null) ?? '',
    text: (row.text as string | null) ?? '',
    ...(aliases.length > 0 ? { aliases } : {}),
    ...(props ? { props } : {}),
  };
}
