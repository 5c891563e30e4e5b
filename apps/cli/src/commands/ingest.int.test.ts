import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toySkb } from '@weft/core/test';
import { BundleWriter, writeBundle } from '@weft/skb';
import { openStore } from '@weft/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.ts';
import { captureIo } from '../testing/capture-io.ts';
import { ingestCommand } from './ingest.ts';

const mainScript = join(dirname(fileURLToPath(import.meta.url)), '..', 'main.ts');

async function ingest(root: string, ...args: string[]) {
  const c = captureIo(root);
  const code = await runCli(['ingest', ...args], c.io, [ingestCommand]);
  return { code, out: c.out(), err: c.err() };
}

/** The store's graph opens and answers; returns its node count and manifest timestamp. */
async function probeStore(directory: string) {
  const store = await openStore(directory);
  try {
    const stats = await store.graph.doStats();
    const [node] = await store.graph.doGetNodes(['p:d850']);
    return { nodes: stats.nodes, edges: stats.edges, createdAt: store.manifest.createdAt, name: node?.name };
  } finally {
    await store.close();
  }
}

describe('weft ingest', () => {
  let root: string;
  let good: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'weft-ingest-'));
    good = join(root, 'good');
    const skb = toySkb();
    await writeBundle(good, {
      ...skb,
      queries: { test: [{ id: 'q1', query: 'a Nikon DSLR', answers: ['p:d850'], split: 'test' }] },
    });
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('builds a store and prints counts per type (--json)', async () => {
    const result = await ingest(root, 'good', '--db', 'store', '--json');
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.out);
    expect(summary).toMatchObject({
      nodes: 15,
      edges: 18,
      nodesByType: { brand: 3, category: 4, product: 8 },
      edgesByType: { made_by: 6, in_category: 7, compatible_with: 3, subcategory_of: 2 },
      queries: { test: 1 },
    });
    expect(summary.peakRssMiB).toBeGreaterThan(0);
    expect(await probeStore(join(root, 'store'))).toMatchObject({ nodes: 15, edges: 18, name: 'Nikon D850' });
    const text = await ingest(root, 'good', '--db', 'store');
    expect(text.out).toMatch(/15 nodes, 18 edges in [\d.]+ s, peak memory [\d,]+ MiB/);
    expect(text.out).toMatch(/in_category\s+7/);
  });

  it.each([
    ['a broken JSON line', 'nodes.jsonl', '{"id": "x:1", "type": \n', /nodes\.jsonl:16: malformed JSON/],
    [
      'a dangling edge',
      'edges.jsonl',
      '{"src": "p:d850", "type": "made_by", "dst": "b:ghost"}\n',
      /edges\.jsonl:19: \[dst\] dst "b:ghost" is not a node id/,
    ],
    [
      'an undeclared node type',
      'nodes.jsonl',
      '{"id": "x:2", "type": "gadget", "name": "G", "text": ""}\n',
      /nodes\.jsonl:16: \[type\] node type "gadget" is not declared/,
    ],
  ])(
    'reports %s with file:line, exits 2 and leaves the previous store intact',
    async (_what, file, line, expected) => {
      const store = join(root, 'kept');
      expect((await ingest(root, 'good', '--db', store)).code).toBe(0);
      const before = await probeStore(store);
      const bad = join(root, `bad-${file}-${Math.random().toString(36).slice(2)}`);
      await writeBundle(bad, toySkb());
      await appendFile(join(bad, file), line);
      const result = await ingest(root, bad, '--db', store);
      expect(result.code).toBe(2);
      expect(result.err).toMatch(expected);
      expect(result.err).toContain('nothing was written');
      expect(await probeStore(store)).toEqual(before);
      // --strict reports the first problem the same way.
      const strict = await ingest(root, bad, '--db', store, '--strict');
      expect(strict.code).toBe(2);
      expect(strict.err).toMatch(expected);
      expect(readdirSync(root).filter((name) => name.includes('.building-'))).toEqual([]);
    },
  );

  it('refuses a --db that is a non-empty directory but not a store, and deletes nothing', async () => {
    const precious = join(root, 'precious');
    await mkdir(precious);
    await writeFile(join(precious, 'thesis.tex'), 'do not delete');
    const result = await ingest(root, 'good', '--db', precious);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/not a Weft store; refusing/);
    expect(await readFile(join(precious, 'thesis.tex'), 'utf8')).toBe('do not delete');
    expect((await ingest(root, 'missing-bundle', '--db', join(root, 'x'))).code).toBe(2);
    expect((await ingest(root, 'good')).code).toBe(2);
  });

  it('a SIGKILLed ingest leaves the previous store usable, and the next ingest cleans up', async () => {
    const store = join(root, 'survivor');
    expect((await ingest(root, 'good', '--db', store)).code).toBe(0);
    const before = await probeStore(store);
    // A bundle big enough that the build takes a few seconds.
    const big = join(root, 'big');
    const skb = toySkb();
    const writer = new BundleWriter(big, skb.schema);
    for (let i = 0; i < 60_000; i++) {
      await writer.writeNode({
        id: `p:${i}`,
        type: 'product',
        name: `Product ${i}`,
        text: `A product numbered ${i}, `.repeat(20),
      });
    }
    for (let i = 1; i < 60_000; i++)
      await writer.writeEdge({ src: `p:${i}`, type: 'compatible_with', dst: `p:${i - 1}` });
    await writer.close();

    const child: ChildProcess = spawn(
      process.execPath,
      [
        '--conditions=@weft/source',
        '--disable-warning=ExperimentalWarning',
        mainScript,
        'ingest',
        big,
        '--db',
        store,
      ],
      {
        stdio: 'ignore',
      },
    );
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    // Kill it once the new graph is being built beside the old store.
    const deadline = Date.now() + 60_000;
    let staging: string | undefined;
    while (!staging && Date.now() < deadline) {
      staging = readdirSync(root).find(
        (name) => name.startsWith('.survivor.building-') && existsSync(join(root, name, 'graph')),
      );
      if (!staging) await new Promise((r) => setTimeout(r, 20));
    }
    expect(staging).toBeDefined();
    await new Promise((r) => setTimeout(r, 300));
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    // The killed build left its staging folder; opening the store removes it (its process is dead).
    expect(readdirSync(root).some((name) => name.startsWith('.survivor.building-'))).toBe(true);
    expect(await probeStore(store)).toEqual(before);
    expect(readdirSync(root).filter((name) => name.startsWith('.survivor.'))).toEqual([]);
    const again = await ingest(root, 'good', '--db', store);
    expect(again.code).toBe(0);
    expect(readdirSync(root).filter((name) => name.startsWith('.survivor.'))).toEqual([]);
  });
});
