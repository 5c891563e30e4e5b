import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openBundle, writeBundle } from '@weft/skb';
import type { SkbNode } from '@weft/spec';
import { createStack } from '@weft/stacks';
import { EmbeddingCache, embeddingCacheFolder, openStore } from '@weft/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.ts';
import { embeddingsServer } from '../testing/canned-openai-server.ts';
import { captureIo } from '../testing/capture-io.ts';
import {
  type ChangeSetFixture,
  comparableRanking,
  writeChangeSetFixture,
} from '../testing/change-set-fixture.ts';
import { ingestCommand } from './ingest.ts';
import { updateCommand } from './update.ts';

const mainScript = join(dirname(fileURLToPath(import.meta.url)), '..', 'main.ts');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `weft ingest` and `weft update` with a hosted embedder (the real `openai-compatible` provider
 * against an OpenAI-compatible embeddings server started here, which counts what it embeds and
 * fails on purpose): every text is embedded once, whatever is re-run, killed or retried.
 */
describe('embeddings paid for once (--embedder provider:model)', () => {
  let root: string;
  let fixture: ChangeSetFixture;
  let nodes: SkbNode[];
  /** Bundle A with 10 % of its nodes' text changed. */
  let changed: string;
  let changedIds: string[];
  let server: Awaited<ReturnType<typeof embeddingsServer>>;
  let queries: string[];
  let reference: string[][];

  async function cli(command: 'ingest' | 'update', ...args: string[]) {
    const c = captureIo(root);
    // A terminal's stderr: progress bars are drawn only there (the progress lines are checked).
    Object.assign(c.io.stderr, { isTTY: true });
    const code = await runCli([command, ...args], c.io, [ingestCommand, updateCommand]);
    if (code !== 0) throw new Error(`weft ${command} exited ${code}: ${c.err()}`);
    return { json: JSON.parse(c.out()), err: c.err() };
  }
  /** What the server embedded while `run` ran. */
  async function embeddedDuring<T>(
    run: () => Promise<T>,
  ): Promise<{ result: T; inputs: string[]; calls: number }> {
    const inputs = server.answered.length;
    const calls = server.calls.length;
    const result = await run();
    return { result, inputs: server.answered.slice(inputs), calls: server.calls.length - calls };
  }
  /** The vector stack's rankings of `queries` (the queries are embedded by the server too). */
  async function rankings(directory: string): Promise<string[][]> {
    const store = await openStore(directory);
    try {
      const retriever = await createStack('vector', store);
      const out: string[][] = [];
      for (const query of queries) {
        const { ranking } = await retriever.doRetrieve({ query, limit: 10 });
        out.push(comparableRanking(ranking, 10).map((c) => `${c.id} ${c.score}`));
      }
      return out;
    } finally {
      await store.close();
    }
  }

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'weft-embedding-cache-'));
    fixture = await writeChangeSetFixture(root);
    const opened = await openBundle(fixture.before);
    nodes = [];
    for await (const node of opened.nodes()) nodes.push(node);
    const edges = [];
    for await (const edge of opened.edges()) edges.push(edge);
    changedIds = nodes.filter((_, i) => i % 10 === 3).map((node) => node.id);
    const retexted = new Set(changedIds);
    changed = join(root, 'A-10pc');
    await writeBundle(changed, {
      schema: opened.schema,
      nodes: nodes.map((node) =>
        retexted.has(node.id) ? { ...node, text: `Revised glimmerstone. ${node.text}` } : node,
      ),
      edges,
    });
    queries = [...fixture.queries.slice(0, 6), ...nodes.slice(0, 4).map((node) => node.name)];
    server = await embeddingsServer();
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('embeds each text once; re-ingesting the unchanged bundle makes no call; 10 % changed embeds those 10 %', async () => {
    const distinct = new Set(nodes.map((node) => node.name)).size;
    expect(distinct).toBeGreaterThan(300);
    const first = await embeddedDuring(() =>
      cli(
        'ingest',
        fixture.before,
        '--db',
        'store',
        '--embedder',
        server.embedder,
        '--embed-batch',
        '32',
        '--json',
      ),
    );
    expect(first.calls).toBeGreaterThanOrEqual(Math.ceil(nodes.length / 32));
    expect(new Set(first.inputs).size).toBe(first.inputs.length);
    expect(first.result.json.embedding).toMatchObject({
      texts: nodes.length,
      cacheHits: nodes.length - first.inputs.length,
      cacheMisses: first.inputs.length,
      calls: first.calls,
      retries: 0,
      cache: join(root, 'store', embeddingCacheFolder),
    });
    expect(first.result.json.indexes.vector).toMatchObject({ dimensions: 32 });
    // The embedding shows on the progress lines.
    expect(first.result.err).toMatch(/index:embed .* 100% 400\/400/);
    reference = await rankings(join(root, 'store'));
    expect(reference.flat().length).toBeGreaterThan(0);

    const again = await embeddedDuring(() =>
      cli('ingest', fixture.before, '--db', 'store', '--embedder', server.embedder, '--json'),
    );
    expect(again.calls).toBe(0);
    expect(again.result.json.embedding).toMatchObject({
      texts: nodes.length,
      cacheHits: nodes.length,
      cacheMisses: 0,
      calls: 0,
    });
    expect(await rankings(join(root, 'store'))).toEqual(reference);

    const tenth = await embeddedDuring(() =>
      cli('ingest', changed, '--db', 'store', '--embedder', server.embedder, '--json'),
    );
    expect(changedIds.length).toBe(40);
    expect(tenth.inputs).toHaveLength(changedIds.length);
    expect(tenth.inputs.every((input) => input.includes('Revised glimmerstone.'))).toBe(true);
    expect(tenth.result.json.embedding).toMatchObject({ cacheHits: nodes.length - 40, cacheMisses: 40 });
    // The human-readable summary says it too.
    const text = await embeddedDuring(async () => {
      const c = captureIo(root);
      await runCli(['ingest', changed, '--db', 'store', '--embedder', server.embedder], c.io, [
        ingestCommand,
      ]);
      return c.out();
    });
    expect(text.calls).toBe(0);
    expect(text.result).toMatch(
      /embeddings: 400 texts, 400 from the cache, 0 embedded in 0 calls \(cache .*embedding-cache\)/,
    );
  }, 300_000);

  it('shares a cache between stores (--embedding-cache) and weft update embeds only texts it has not seen', async () => {
    const shared = join(root, 'shared-cache');
    // A cache inside the store would go with the store the build replaces; bad sizes are usage errors.
    for (const [flags, message] of [
      [['--embedding-cache', 'store/mine'], /--embedding-cache .*store\/mine is inside the store/],
      [['--embed-batch', '0'], /--embed-batch must be an integer from 1 to 100,000, got "0"/],
      [['--embed-concurrency', 'many'], /--embed-concurrency must be an integer/],
    ] as const) {
      const c = captureIo(root);
      const code = await runCli(
        ['ingest', fixture.before, '--db', 'store', '--embedder', server.embedder, ...flags],
        c.io,
        [ingestCommand],
      );
      expect(code).toBe(2);
      expect(c.err()).toMatch(message);
    }
    const first = await embeddedDuring(() =>
      cli(
        'ingest',
        fixture.before,
        '--db',
        'other',
        '--embedder',
        server.embedder,
        '--embedding-cache',
        shared,
        '--json',
      ),
    );
    // A new folder: everything embedded once more, into it; the store has no cache of its own.
    expect(first.result.json.embedding.cacheMisses).toBe(first.inputs.length);
    expect(first.inputs.length).toBeGreaterThan(300);
    expect(existsSync(join(root, 'other', embeddingCacheFolder))).toBe(false);
    const second = await embeddedDuring(() =>
      cli(
        'ingest',
        fixture.before,
        '--db',
        'third',
        '--embedder',
        server.embedder,
        '--embedding-cache',
        shared,
        '--json',
      ),
    );
    expect(second.calls).toBe(0);

    await cp(join(root, 'third'), join(root, 'third-copy'), { recursive: true });
    const update = await embeddedDuring(() =>
      cli('update', '--db', 'third', fixture.changes, '--embedding-cache', shared, '--json'),
    );
    const before = new Set(first.inputs);
    expect(update.inputs.length).toBeGreaterThan(0);
    expect(update.inputs.filter((input) => before.has(input))).toEqual([]);
    expect(update.result.json.embedding).toMatchObject({
      cacheMisses: update.inputs.length,
      calls: update.calls,
    });
    const total = update.result.json.embedding.texts;
    expect(update.result.err).toMatch(new RegExp(`embed .* 100% ${total}/${total}`));
    // The same change set on a copy of the store: its texts are all in the shared cache now.
    const repeat = await embeddedDuring(() =>
      cli('update', '--db', 'third-copy', fixture.changes, '--embedding-cache', shared, '--json'),
    );
    expect(repeat.calls).toBe(0);
    expect(repeat.result.json.embedding.cacheHits).toBe(update.result.json.embedding.texts);
    expect(await rankings(join(root, 'third-copy'))).toEqual(await rankings(join(root, 'third')));
  }, 300_000);

  it('retries 429 and 5xx (Retry-After honoured) and ranks as an ingest without failures', async () => {
    const failing = new Map<number, { status: number; headers?: Record<string, string> }>([
      [1, { status: 429, headers: { 'retry-after-ms': '30' } }],
      [2, { status: 500 }],
      [3, { status: 429, headers: { 'retry-after': '0' } }],
      [5, { status: 503, headers: { 'retry-after': '0' } }],
    ]);
    const start = server.calls.length;
    server.options.fail = (call) => failing.get(call.number - start);
    try {
      const run = await embeddedDuring(() =>
        cli(
          'ingest',
          fixture.before,
          '--db',
          'flaky',
          '--embedder',
          server.embedder,
          '--embedding-cache',
          'none',
          '--embed-batch',
          '50',
          '--embed-concurrency',
          '2',
          '--json',
        ),
      );
      expect(server.failures.map((f) => f.status)).toEqual([429, 500, 429, 503]);
      expect(run.result.json.embedding).toMatchObject({ retries: 4, cacheMisses: run.inputs.length });
      expect(run.result.json.embedding.cache).toBeUndefined();
      expect(run.calls).toBe(run.result.json.embedding.calls + 4);
      expect(run.result.err).toMatch(/embedding call failed \(HTTP 429\); retrying in 0\.0 s/);
      expect(run.result.err).toMatch(/embedding call failed \(HTTP 500\); retrying in 0\.5 s/);
    } finally {
      server.options.fail = undefined;
    }
    expect(await rankings(join(root, 'flaky'))).toEqual(reference);
    // A call that keeps failing with a 4xx is not retried: the ingest fails and says why.
    server.options.fail = () => ({ status: 401 });
    try {
      const c = captureIo(root);
      const code = await runCli(
        ['ingest', changed, '--db', 'flaky', '--embedder', server.embedder, '--embedding-cache', 'none'],
        c.io,
        [ingestCommand],
      );
      expect(code).toBe(1);
      expect(c.err()).toMatch(
        /embedding with openai-compatible\.embedding:fake-embed failed \(HTTP 401\) after 1 attempt/,
      );
    } finally {
      server.options.fail = undefined;
    }
  }, 300_000);

  it('keeps no cache for the local embedder (fitted anew by each ingest)', async () => {
    const local = await embeddedDuring(() => cli('ingest', fixture.before, '--db', 'local', '--json'));
    expect(local.calls).toBe(0);
    expect(local.result.json.embedding).toBeNull();
    expect(local.result.json.indexes.vector.embedder).toMatch(/^local:/);
    expect(existsSync(join(root, 'local', embeddingCacheFolder))).toBe(false);
  }, 300_000);

  it('resumes an ingest killed at half its embeddings without embedding any text twice', async () => {
    const store = join(root, 'killed');
    const cacheFolder = join(store, embeddingCacheFolder);
    const start = server.answered.length;
    // Once half the nodes are answered, the server stops answering: the child is killed waiting.
    server.options.hold = () => server.answered.length - start >= nodes.length / 2;
    const child = spawn(
      process.execPath,
      [
        '--conditions=@weft/source',
        '--disable-warning=ExperimentalWarning',
        mainScript,
        'ingest',
        fixture.before,
        '--db',
        store,
        '--embedder',
        server.embedder,
        '--embed-batch',
        '20',
        '--embed-concurrency',
        '2',
      ],
      { stdio: 'ignore' },
    );
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    let firstRun: string[] = [];
    try {
      // Killed once it waits on the server and has written what it received to the cache.
      const deadline = Date.now() + 120_000;
      for (;;) {
        if (Date.now() > deadline)
          throw new Error(
            `the cache never held the ${new Set(firstRun).size} texts answered before the hold`,
          );
        if (child.exitCode !== null)
          throw new Error(`weft ingest ended before it was killed (${child.exitCode})`);
        firstRun = server.answered.slice(start);
        if (server.held() > 0 && existsSync(cacheFolder)) {
          const cache = await EmbeddingCache.open(cacheFolder);
          const size = cache.size;
          cache.close();
          if (size === new Set(firstRun).size) break;
        }
        await sleep(20);
      }
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
    } finally {
      server.options.hold = undefined;
      child.kill('SIGKILL');
    }
    expect(firstRun.length).toBeGreaterThanOrEqual(nodes.length / 2);
    expect(firstRun.length).toBeLessThan(nodes.length);
    expect(existsSync(join(store, 'store.json'))).toBe(false);

    const rerun = await embeddedDuring(() =>
      cli('ingest', fixture.before, '--db', store, '--embedder', server.embedder, '--json'),
    );
    const seen = new Set(firstRun);
    expect(rerun.inputs.filter((input) => seen.has(input))).toEqual([]);
    expect(rerun.result.json.embedding).toMatchObject({
      cacheHits: firstRun.length,
      cacheMisses: nodes.length - firstRun.length,
    });
    expect(new Set([...firstRun, ...rerun.inputs]).size).toBe(nodes.length);
    expect(existsSync(join(store, embeddingCacheFolder))).toBe(true);
    expect(await rankings(store)).toEqual(reference);
  }, 300_000);
});
