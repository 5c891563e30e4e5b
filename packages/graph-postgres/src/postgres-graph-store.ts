import {
  type AdjacencyStatements,
  CsrAdjacency,
  degreeSummary,
  KeptStructures,
  NameIndex,
  NodeCache,
} from '@weft/graph-kit';
import { toWeftError, WeftError } from '@weft/kit';
import type {
  CypherResult,
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
import postgres from 'postgres';
import { parsePostgresLocation } from './postgres-location.ts';
import { quoteIdentifier } from './postgres-mapping.ts';

export interface PostgresGraphStoreOptions {
  /** Open for writing (default false: every session is `default_transaction_read_only`). */
  readonly readWrite?: boolean;
  /** Connections in the pool (default 4). */
  readonly connections?: number;
  /** `'lazy'` (default): load the in-memory adjacency on the first expansion; `'open'`: during `open`. */
  readonly adjacency?: 'lazy' | 'open';
  /** Nodes kept by `doGetNodes` between calls (default 10,000; 0 = no cache). */
  readonly nodeCacheSize?: number;
  /**
   * A local folder where the adjacency and the name index, once loaded from the tables, are kept for
   * the next process (a later open reads them instead of scanning the graph: seconds at 10^7 edges).
   * They are kept under the graph's build name (`meta.build`), so a rebuilt graph is scanned again;
   * a graph built before builds were named is always scanned. Absent: nothing is kept.
   */
  readonly cacheDirectory?: string;
}

const idBatch = 10_000;

/**
 * The Weft graph store on PostgreSQL: a graph built by `buildPostgresGraph` in one schema. Nodes by
 * id and statistics are SQL over indexed tables; expansion and name look-ups are answered, as by the
 * embedded stores, from the in-memory adjacency and name index of `@weft/graph-kit`, loaded from the
 * tables once (so rankings equal the embedded stores'). Cypher is refused (`supportsCypher: false`).
 */
export class PostgresGraphStore implements GraphStoreV1 {
  readonly specificationVersion = 'v1';
  readonly provider = 'postgres';
  readonly supportsCypher = false;
  /** The URL (without password) and schema of the graph. */
  readonly url: string;
  readonly schemaName: string;
  private readonly sql: postgres.Sql;
  private readonly table: { nodes: string; edges: string; meta: string };
  private schema: SkbSchema | undefined;
  /** The adjacency and name index, kept in `cacheDirectory` under the graph's build name. */
  private readonly kept: KeptStructures;
  private readonly nodeCache: NodeCache;
  private stats: Promise<GraphStats> | undefined;
  private closed = false;
  /** `meta.build` of the graph, when its builder named it. */
  private build: string | undefined;

  private constructor(url: string, schema: string, sql: postgres.Sql, options: PostgresGraphStoreOptions) {
    this.url = url;
    this.schemaName = schema;
    this.sql = sql;
    const s = quoteIdentifier(schema);
    this.table = { nodes: `${s}.nodes`, edges: `${s}.edges`, meta: `${s}.meta` };
    this.nodeCache = new NodeCache(options.nodeCacheSize ?? 10_000);
    const directory = options.cacheDirectory;
    this.kept = new KeptStructures(
      () =>
        directory === undefined || this.build === undefined
          ? undefined
          : { directory, stamp: `postgres:${this.schemaName}:${this.build}` },
      { adjacency: () => this.scanAdjacency(), names: () => this.scanNames() },
    );
  }

  /** Opens the graph at `location`: `postgres://user@host:port/database?schema=<schema>`. */
  static async open(location: string, options: PostgresGraphStoreOptions = {}): Promise<PostgresGraphStore> {
    const parsed = parsePostgresLocation(location);
    if (!parsed.schemaGiven)
      throw new WeftError({
        code: 'WEFT_BAD_INPUT',
        message: `${location}: name the graph's schema (?schema=…)`,
      });
    const sql = postgres(parsed.url, {
      max: Math.max(1, options.connections ?? 4),
      onnotice: () => {},
      ...(parsed.password !== undefined ? { password: parsed.password } : {}),
      connection: {
        application_name: 'weft',
        ...(options.readWrite ? {} : { default_transaction_read_only: 'on' }),
      } as Record<string, string>,
    });
    const store = new PostgresGraphStore(parsed.url, parsed.schema, sql, options);
    try {
      const rows = await sql.unsafe(
        `SELECT key, value FROM ${store.table.meta} WHERE key IN ('schema', 'build')`,
      );
      const meta = new Map(rows.map((row) => [row.key as string, row.value as unknown]));
      const value = meta.get('schema');
      if (typeof value !== 'string')
        throw new WeftError({ code: 'WEFT_STORE_FAILED', message: `${location} holds no Weft schema` });
      store.schema = JSON.parse(value) as SkbSchema;
      const build = meta.get('build');
      if (typeof build === 'string' && build !== '') store.build = build;
      if (options.adjacency === 'open') await store.loadAdjacency();
    } catch (error) {
      await store.close();
      throw WeftError.is(error)
        ? error
        : toWeftError(error, 'WEFT_STORE_FAILED', `cannot open the PostgreSQL graph at ${location}`);
    }
    return store;
  }

  private check(signal?: AbortSignal): void {
    if (this.closed) throw new WeftError({ code: 'WEFT_STORE_FAILED', message: 'the graph store is closed' });
    if (signal?.aborted)
      throw new WeftError({ code: 'WEFT_ABORTED', message: 'aborted', cause: signal.reason });
  }

  private async query(statement: string, params: readonly (string | number | string[])[] = []) {
    try {
      return await this.sql.unsafe(statement, params as never[]);
    } catch (error) {
      throw toWeftError(error, 'WEFT_STORE_FAILED', 'PostgreSQL query failed');
    }
  }

  /**
   * The in-memory adjacency, loaded once: from the file an earlier process kept for this build
   * (`cacheDirectory`), else from the tables (node offsets = `nodes.off`), then kept.
   */
  loadAdjacency(): Promise<CsrAdjacency> {
    return this.kept.loadAdjacency();
  }

  /** Load time and size of the adjacency, once loaded (for benchmarks and diagnostics). */
  get adjacencyInfo(): KeptStructures['adjacencyInfo'] {
    return this.kept.adjacencyInfo;
  }

  private scanAdjacency(): Promise<CsrAdjacency> {
    const statements: AdjacencyStatements = {
      nodes: `SELECT type, array_agg(off ORDER BY off) AS offsets, array_agg(id ORDER BY off) AS ids FROM ${this.table.nodes} GROUP BY type`,
      // Chunked by source range: one row per (type, 65,536 sources), never one giant array.
      edges: `SELECT type, array_agg(src::float8 * $1::float8 + dst) AS packed FROM ${this.table.edges} GROUP BY type, src >> 16`,
    };
    return CsrAdjacency.load(
      async (statement, params, onRow) => {
        const rows = await this.query(statement, statement.includes('$1') ? [params.size ?? 1] : []);
        for (const row of rows) onRow(row as Record<string, unknown>);
      },
      this.schema!.nodeTypes.map((t) => t.name),
      this.schema!.edgeTypes.map((t) => t.name),
      statements,
    );
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
      else if (!this.kept.loaded || this.kept.loaded.offsetOf(id) !== undefined) missing.push(id);
    }
    for (let i = 0; i < missing.length; i += idBatch) {
      const rows = await this.query(
        `SELECT id, type, name, aliases, text, props FROM ${this.table.nodes} WHERE id = ANY($1::text[])`,
        [missing.slice(i, i + idBatch)],
      );
      for (const row of rows) {
        const node = toNode(row);
        found.set(node.id, node);
        this.nodeCache.set(node.id, node);
      }
      this.check(options.abortSignal);
    }
    return ids.map((id) => found.get(id));
  }

  async doNeighbors(options: GraphNeighborsOptions): Promise<GraphNeighbor[]> {
    this.check(options.abortSignal);
    if (options.seeds.length === 0 || options.edgeTypes?.length === 0 || options.nodeTypes?.length === 0)
      return [];
    const adjacency = await this.loadAdjacency();
    this.check(options.abortSignal);
    return adjacency.expand(options);
  }

  async doSampleNodes(options: GraphSampleOptions): Promise<string[]> {
    this.check(options.abortSignal);
    return (await this.loadAdjacency()).sample(options);
  }

  private async scanNames(): Promise<NameIndex> {
    const index = new NameIndex();
    await this.sql
      .unsafe(`SELECT id, type, name, aliases FROM ${this.table.nodes} ORDER BY type, off`)
      .cursor(10_000, (rows) => {
        for (const row of rows)
          index.add({
            id: row.id as string,
            type: row.type as string,
            name: (row.name as string | null) ?? '',
            aliases: (row.aliases as string[] | null) ?? [],
          });
      })
      .catch((error: unknown) => {
        throw toWeftError(error, 'WEFT_STORE_FAILED', 'PostgreSQL query failed');
      });
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

  async doCypher(): Promise<CypherResult> {
    this.check();
    throw new WeftError({
      code: 'WEFT_UNSUPPORTED',
      message:
        'the PostgreSQL graph store runs no Cypher (supportsCypher is false); stages that need Cypher want an embedded store (--graph ladybug or kuzu)',
    });
  }

  async doStats(): Promise<GraphStats> {
    this.check();
    this.stats ??= (async () => {
      const nodesByType: Record<string, number> = {};
      const edgesByType: Record<string, number> = {};
      for (const row of await this.query(
        `SELECT type, count(*) AS count FROM ${this.table.nodes} GROUP BY type ORDER BY type`,
      ))
        nodesByType[row.type as string] = Number(row.count);
      for (const row of await this.query(
        `SELECT type, count(*) AS count FROM ${this.table.edges} GROUP BY type ORDER BY type`,
      ))
        edgesByType[row.type as string] = Number(row.count);
      // Degree = out + in edges (a self-loop counts twice), as a histogram.
      const histogram = await this.query(
        `SELECT coalesce(o.c, 0) + coalesce(i.c, 0) AS degree, count(*) AS count FROM ${this.table.nodes} n
           LEFT JOIN (SELECT src, count(*) AS c FROM ${this.table.edges} GROUP BY src) o ON o.src = n.off
           LEFT JOIN (SELECT dst, count(*) AS c FROM ${this.table.edges} GROUP BY dst) i ON i.dst = n.off
         GROUP BY 1 ORDER BY 1`,
      );
      const nodes = Object.values(nodesByType).reduce((s, c) => s + c, 0);
      const edges = Object.values(edgesByType).reduce((s, c) => s + c, 0);
      return {
        nodes,
        edges,
        nodesByType,
        edgesByType,
        degree: degreeSummary(histogram as unknown as Record<string, unknown>[], nodes),
      };
    })();
    this.stats.catch(() => {
      this.stats = undefined;
    });
    return this.stats;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.nodeCache.clear();
    await this.kept.settled();
    await this.sql.end({ timeout: 5 });
  }
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
