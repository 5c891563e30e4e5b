// Kùzu and LadybugDB stores built from the same bundle give the same answers. Every engine runs in
// its own `weft` process: one process must never load both native modules (it segfaults on exit).
// LanceDB's IVF index is trained from a random start, so two ingests of one bundle can differ in
// their vector hits whatever the graph engine: the compared stores share one set of indexes (the
// LadybugDB store's graph beside a copy of the Kùzu store's indexes), so only the engine differs.
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { wordnetBundle } from '@weft-dev/test-data';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const mainScript = join(dirname(fileURLToPath(import.meta.url)), '..', 'main.ts');
const weft = (args: string[]) =>
  run(
    process.execPath,
    ['--conditions=@weft/source', '--disable-warning=ExperimentalWarning', mainScript, ...args],
    { maxBuffer: 64 << 20 },
  );

const engines = ['kuzu', 'ladybug'] as const;
// Every stack that runs without a language model; bm25 is always evaluated too.
const stacks = [
  'default',
  'bm25-rel',
  'vector',
  'hybrid-rrf',
  'mor-offline',
  'focused-offline',
  'hybgrag-offline',
  'kar-offline',
  'mixrag-offline',
  'ppr',
];

interface Evaluated {
  readonly rankings: Map<string, string>;
  readonly metrics: unknown;
}

/** The rankings (ids and scores) per stack and query, and the metrics of `weft eval --out`. */
async function evaluated(out: string): Promise<Evaluated> {
  const rankings = new Map<string, string>();
  for (const line of (await readFile(join(out, 'records.jsonl'), 'utf8')).split('\n')) {
    if (!line) continue;
    const record = JSON.parse(line) as { stack: string; queryId: string; ranking: unknown; error?: unknown };
    rankings.set(`${record.stack} ${record.queryId}`, JSON.stringify([record.ranking, record.error ?? null]));
  }
  const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as {
    stacks: { stack: string; hit1: number; hit5: number; recall20: number; mrr: number }[];
  };
  // Everything but the latencies.
  const metrics = summary.stacks.map(({ stack, hit1, hit5, recall20, mrr }) => ({
    stack,
    hit1,
    hit5,
    recall20,
    mrr,
  }));
  return { rankings, metrics };
}

describe('weft ingest --graph kuzu | ladybug on WordNet 3.1', () => {
  let root: string;
  const results = new Map<string, Evaluated>();
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'weft-engines-'));
    const bundle = await wordnetBundle();
    for (const engine of engines) {
      const { stdout } = await weft([
        'ingest',
        bundle,
        '--db',
        join(root, `${engine}-built`),
        '--graph',
        engine,
        '--json',
      ]);
      expect(JSON.parse(stdout).graph).toEqual({ provider: engine, path: 'graph' });
    }
    // The Kùzu store as built; the LadybugDB one with the Kùzu store's indexes and artifacts.
    await cp(join(root, 'kuzu-built'), join(root, 'kuzu'), { recursive: true });
    await cp(join(root, 'kuzu-built'), join(root, 'ladybug'), { recursive: true });
    await rm(join(root, 'ladybug', 'graph'), { recursive: true });
    await cp(join(root, 'ladybug-built', 'graph'), join(root, 'ladybug', 'graph'), { recursive: true });
    const manifest = JSON.parse(await readFile(join(root, 'ladybug', 'store.json'), 'utf8'));
    await writeFile(
      join(root, 'ladybug', 'store.json'),
      JSON.stringify({ ...manifest, graph: { provider: 'ladybug', path: 'graph' } }),
    );
    for (const engine of engines) {
      const db = join(root, engine);
      const out = join(root, `${engine}-eval`);
      await weft([
        'eval',
        bundle,
        '--db',
        db,
        '--set',
        'demo',
        ...stacks.flatMap((stack) => ['--stack', stack]),
        '--out',
        out,
        '--concurrency',
        '1',
        '--json',
      ]);
      results.set(engine, await evaluated(out));
    }
  }, 600_000);
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('every stack ranks every demo query identically (ids and scores) on both engines', () => {
    const kuzu = results.get('kuzu')!;
    const ladybug = results.get('ladybug')!;
    expect(kuzu.rankings.size).toBe(12 * (stacks.length + 1));
    expect([...ladybug.rankings.keys()].sort()).toEqual([...kuzu.rankings.keys()].sort());
    const different = [...kuzu.rankings].filter(([key, ranking]) => ladybug.rankings.get(key) !== ranking);
    expect(different.map(([key]) => key)).toEqual([]);
  });

  it('so every stack’s metrics are equal to the decimal', () => {
    expect(results.get('ladybug')!.metrics).toEqual(results.get('kuzu')!.metrics);
  });
});
