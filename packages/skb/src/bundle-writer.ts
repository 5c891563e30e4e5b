import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import type { SkbEdge, SkbNode, SkbQuery, SkbSchema } from '@weft/spec';

export interface BundleWriterOptions {
  /** Write `.jsonl.gz` instead of `.jsonl` (default false). */
  readonly gzip?: boolean;
  /** Contents of SOURCE.md (where the data came from); omitted when absent. */
  readonly source?: string;
}

class JsonlSink {
  private readonly file: WriteStream;
  private readonly head: Writable;
  private buffer: string[] = [];
  private bufferedChars = 0;

  constructor(path: string, gzip: boolean) {
    this.file = createWriteStream(path);
    if (gzip) {
      const zip = createGzip({ level: 6 });
      zip.pipe(this.file);
      this.head = zip;
    } else this.head = this.file;
  }

  /** Buffers lines and honours back-pressure, so writing millions of records stays in bounded memory. */
  async write(record: unknown): Promise<void> {
    const line = `${JSON.stringify(record)}\n`;
    this.buffer.push(line);
    this.bufferedChars += line.length;
    if (this.bufferedChars >= 1 << 20) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.buffer.length === 0) return;
    const chunk = this.buffer.join('');
    this.buffer = [];
    this.bufferedChars = 0;
    if (!this.head.write(chunk)) await once(this.head, 'drain');
  }

  async close(): Promise<void> {
    await this.flush();
    const finished = once(this.file, 'close');
    this.head.end();
    await finished;
  }
}

/**
 * Writes a bundle record by record: `new BundleWriter(dir, schema)`, then `writeNode`, `writeEdge`,
 * `writeQuery(set, query)`, then `close()`. Records are written as given — validate with
 * `validateBundle` afterwards (tests write broken bundles on purpose).
 */
export class BundleWriter {
  readonly directory: string;
  private readonly schema: SkbSchema;
  private readonly options: BundleWriterOptions;
  private readonly extension: string;
  private nodesSink: JsonlSink | undefined;
  private edgesSink: JsonlSink | undefined;
  private readonly querySinks = new Map<string, JsonlSink>();
  private started: Promise<void> | undefined;

  constructor(directory: string, schema: SkbSchema, options: BundleWriterOptions = {}) {
    this.directory = directory;
    this.schema = schema;
    this.options = options;
    this.extension = options.gzip ? '.jsonl.gz' : '.jsonl';
  }

  private start(): Promise<void> {
    this.started ??= (async () => {
      await mkdir(this.directory, { recursive: true });
      await writeFile(join(this.directory, 'schema.json'), `${JSON.stringify(this.schema, null, 2)}\n`);
      if (this.options.source !== undefined)
        await writeFile(join(this.directory, 'SOURCE.md'), this.options.source);
      this.nodesSink = new JsonlSink(
        join(this.directory, `nodes${this.extension}`),
        this.options.gzip ?? false,
      );
      this.edgesSink = new JsonlSink(
        join(this.directory, `edges${this.extension}`),
        this.options.gzip ?? false,
      );
    })();
    return this.started;
  }

  async writeNode(node: SkbNode | Record<string, unknown>): Promise<void> {
    await this.start();
    await this.nodesSink!.write(node);
  }

  async writeEdge(edge: SkbEdge | Record<string, unknown>): Promise<void> {
    await this.start();
    await this.edgesSink!.write(edge);
  }

  async writeQuery(set: string, query: SkbQuery | Record<string, unknown>): Promise<void> {
    await this.start();
    let sink = this.querySinks.get(set);
    if (!sink) {
      if (!/^[\w.-]+$/.test(set)) throw new Error(`invalid query set name "${set}"`);
      await mkdir(join(this.directory, 'queries'), { recursive: true });
      sink = new JsonlSink(
        join(this.directory, 'queries', `${set}${this.extension}`),
        this.options.gzip ?? false,
      );
      this.querySinks.set(set, sink);
    }
    await sink.write(query);
  }

  /** Flushes and closes every file; a bundle with no records still gets empty nodes/edges files. */
  async close(): Promise<void> {
    await this.start();
    await Promise.all([
      this.nodesSink!.close(),
      this.edgesSink!.close(),
      ...[...this.querySinks.values()].map((sink) => sink.close()),
    ]);
  }
}

type Records<T> = Iterable<T> | AsyncIterable<T>;

export interface BundleContents {
  readonly schema: SkbSchema;
  readonly nodes: Records<SkbNode | Record<string, unknown>>;
  readonly edges: Records<SkbEdge | Record<string, unknown>>;
  /** Query set name → queries. */
  readonly queries?: Readonly<Record<string, Records<SkbQuery | Record<string, unknown>>>>;
}

/** Writes a whole bundle from in-memory or streamed records. */
export async function writeBundle(
  directory: string,
  contents: BundleContents,
  options: BundleWriterOptions = {},
): Promise<void> {
  const writer = new BundleWriter(directory, contents.schema, options);
  for await (const node of contents.nodes) await writer.writeNode(node);
  for await (const edge of contents.edges) await writer.writeEdge(edge);
  for (const [set, queries] of Object.entries(contents.queries ?? {})) {
    for await (const query of queries) await writer.writeQuery(set, query);
  }
  await writer.close();
}
