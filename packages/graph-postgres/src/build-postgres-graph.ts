import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { toWeftError, WeftError } from '@weft/kit';
import { csvField } from '@weft/graph-kit';
import type { SkbEdge, SkbNode, SkbSchema } from '@weft/spec';
import postgres from 'postgres';
import { formatPostgresLocation, type PostgresLocation, parsePostgresLocation } from './postgres-location.ts';
import { indexDdl, quoteIdentifier, tableDdl, textArrayLiteral } from './postgres-mapping.ts';

export type PostgresBuildPhase = 'copy-nodes' | 'copy-edges' | 'index' | 'swap';

export interface BuildPostgresGraphOptions {
  /**
   * `postgres://user[:password]@host:port/database[?schema=name]`. Without `schema` the graph goes
   * into a new schema `weft_<time>_<random>`; with it, into `<name>` (built beside as
   * `<name>__building`, and replacing an existing `<name>` only once complete).
   */
  readonly url: string;
  readonly schema: SkbSchema;
  readonly nodes: AsyncIterable<SkbNode> | Iterable<SkbNode>;
  readonly edges: AsyncIterable<SkbEdge> | Iterable<SkbEdge>;
  readonly onProgress?: (phase: PostgresBuildPhase, done: number) => void;
}

export interface PostgresGraphBuild {
  /** Where it was built: `formatPostgresLocation(location)` is what `PostgresGraphStore.open` takes. */
  readonly location: PostgresLocation;
  readonly nodes: number;
  readonly edges: number;
  readonly nodesByType: Record<string, number>;
  readonly edgesByType: Record<string, number>;
  /** Seconds per phase. */
  readonly timings: Record<string, number>;
}

/** Writes CSV lines to a COPY stream in batches, honouring back-pressure. */
class CopyWriter {
  private buffer: string[] = [];
  private size = 0;
  private readonly stream: Writable;
  private failure: unknown;
  constructor(stream: Writable) {
    this.stream = stream;
    // Kept, and rethrown by the next write or close: never an unhandled 'error' event.
    stream.on('error', (error) => {
      this.failure ??= error;
    });
  }
  /** Aborts the COPY (the server rolls it back). */
  abort(error: Error): void {
    if (!this.stream.destroyed) this.stream.destroy(error);
  }
  async row(fields: readonly string[]): Promise<void> {
    const line = `${fields.join(',')}\n`;
    this.buffer.push(line);
    this.size += line.length;
    if (this.size >= 1 << 20) await this.flush();
  }
  private async flush(): Promise<void> {
    if (this.buffer.length === 0) return;
    const chunk = this.buffer.join('');
    this.buffer = [];
    this.size = 0;
    if (this.failure) throw this.failure;
    if (!this.stream.write(chunk)) await once(this.stream, 'drain');
  }
  async close(): Promise<void> {
    await this.flush();
    if (this.failure) throw this.failure;
    const finished = once(this.stream, 'finish');
    this.stream.end();
    await finished;
  }
}

function randomSchema(): string {
  return `weft_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
}

/**
 * Builds a graph in PostgreSQL from an SKB by bulk loading: nodes and edges stream into
 * `COPY … FROM STDIN (FORMAT csv)` (never row-by-row inserts), then the indexes are built and the
 * tables analysed. Edge ends are resolved to node offsets while streaming (an id → offset map in
 * memory: validate the bundle first, the build trusts its input).
 */
export async function buildPostgresGraph(options: BuildPostgresGraphOptions): Promise<PostgresGraphBuild> {
  const parsed = parsePostgresLocation(options.url);
  const target = parsed.schemaGiven ? parsed.schema : randomSchema();
  const building = parsed.schemaGiven ? `${target}__building` : target;
  const sql = postgres(parsed.url, {
    max: 1,
    onnotice: () => {},
    ...(parsed.password !== undefined ? { password: parsed.password } : {}),
  });
  const timings: Record<string, number> = {};
  let started = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    timings[name] = Math.round(now - started) / 1000;
    started = now;
  };
  const nodesByType: Record<string, number> = {};
  const edgesByType: Record<string, number> = {};
  let nodes = 0;
  let edges = 0;
  const s = quoteIdentifier(building);
  let copying: CopyWriter | undefined;
  try {
    await sql.unsafe(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
    for (const statement of tableDdl(building)) await sql.unsafe(statement);

    const offsetOf = new Map<string, number>();
    options.onProgress?.('copy-nodes', 0);
    const nodeCopy = new CopyWriter(
      await sql
        .unsafe(`COPY ${s}.nodes (off, id, type, name, aliases, text, props) FROM STDIN (FORMAT csv)`)
        .writable(),
    );
    copying = nodeCopy;
    for await (const node of options.nodes) {
      const props = node.props && Object.keys(node.props).length > 0 ? JSON.stringify(node.props) : '';
      offsetOf.set(node.id, nodes);
      await nodeCopy.row([
        String(nodes),
        csvField(node.id),
        csvField(node.type),
        csvField(node.name ?? ''),
        csvField(textArrayLiteral(node.aliases ?? [])),
        csvField(node.text ?? ''),
        csvField(props),
      ]);
      nodes++;
      nodesByType[node.type] = (nodesByType[node.type] ?? 0) + 1;
      if (nodes % 20_000 === 0) options.onProgress?.('copy-nodes', nodes);
    }
    await nodeCopy.close();
    options.onProgress?.('copy-nodes', nodes);
    lap('copyNodes');

    options.onProgress?.('copy-edges', 0);
    const edgeCopy = new CopyWriter(
      await sql.unsafe(`COPY ${s}.edges (src, dst, type) FROM STDIN (FORMAT csv)`).writable(),
    );
    copying = edgeCopy;
    for await (const edge of options.edges) {
      const src = offsetOf.get(edge.src);
      const dst = offsetOf.get(edge.dst);
      if (src === undefined || dst === undefined)
        throw new WeftError({
          code: 'WEFT_BAD_INPUT',
          message: `edge ${edge.src} -[${edge.type}]-> ${edge.dst} names an unknown node`,
        });
      await edgeCopy.row([String(src), String(dst), csvField(edge.type)]);
      edges++;
      edgesByType[edge.type] = (edgesByType[edge.type] ?? 0) + 1;
      if (edges % 50_000 === 0) options.onProgress?.('copy-edges', edges);
    }
    await edgeCopy.close();
    options.onProgress?.('copy-edges', edges);
    lap('copyEdges');

    options.onProgress?.('index', 0);
    for (const statement of indexDdl(building)) await sql.unsafe(statement);
    // `build` names this build: a reader keeps what it derives from the graph (the adjacency, the
    // name index) on its own disk under this name, and a rebuild, being another, is never mistaken for it.
    await sql.unsafe(`INSERT INTO ${s}.meta (key, value) VALUES ($1, $2), ($3, $4), ($5, $6)`, [
      'schema',
      JSON.stringify(options.schema),
      'counts',
      JSON.stringify({ nodes, edges, nodesByType, edgesByType }),
      'build',
      randomUUID(),
    ]);
    lap('index');
    if (building !== target) {
      options.onProgress?.('swap', 0);
      await sql.begin(async (tx) => {
        await tx.unsafe(`DROP SCHEMA IF EXISTS ${quoteIdentifier(target)} CASCADE`);
        await tx.unsafe(`ALTER SCHEMA ${s} RENAME TO ${quoteIdentifier(target)}`);
      });
      lap('swap');
    }
  } catch (error) {
    copying?.abort(error instanceof Error ? error : new Error(String(error)));
    await sql.unsafe(`DROP SCHEMA IF EXISTS ${s} CASCADE`).catch(() => undefined);
    throw WeftError.is(error)
      ? error
      : toWeftError(error, 'WEFT_STORE_FAILED', `building the PostgreSQL graph in ${parsed.url} failed`);
  } finally {
    await sql.end({ timeout: 5 });
  }
  return {
    location: { url: parsed.url, schema: target },
    nodes,
    edges,
    nodesByType,
    edgesByType,
    timings,
  };
}

export { formatPostgresLocation };
