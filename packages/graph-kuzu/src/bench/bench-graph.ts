/**
 * Graph benchmarks (printed figures, not tests): WordNet build (wall, peak RSS, file size), then
 * 2-hop neighbour expansion from 50 seeds with one edge-type filter, and batch lookup.
 *
 *   pnpm bench                                  # WordNet from ../shared/datasets/wordnet
 *   node --conditions=@weft/source src/bench/bench-graph.ts --graph <store>/graph   # expansion only, on an existing graph
 */
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openBundle } from '@weft/skb';
import { buildKuzuGraph } from '../build-kuzu-graph.ts';
import { expandMetapath } from '../expand-metapath.ts';
import { databaseFileName } from '../kuzu-graph-mapping.ts';
import { KuzuGraphStore } from '../kuzu-graph-store.ts';

function sharedDirectory(): string {
  if (process.env.WEFT_SHARED) return process.env.WEFT_SHARED;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'pnpm-workspace.yaml'))) dir = dirname(dir);
  return resolve(dir, '../shared');
}

const mib = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MiB`;
const percentile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

function seededRandom(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

async function expansionBench(label: string, store: KuzuGraphStore, edgeType: string) {
  const ids = (await store.doCypher('MATCH (n:Node) RETURN n.id', { maxRows: 2_000_000 })).rows.map(
    (r) => r[0] as string,
  );
  const next = seededRandom(7);
  const times: number[] = [];
  let reached = 0;
  for (let run = 0; run < 40; run++) {
    const seeds = Array.from({ length: 50 }, () => ids[Math.floor(next() * ids.length)]!);
    const started = performance.now();
    const paths = await expandMetapath(store, {
      seeds,
      steps: [
        { edgeTypes: [edgeType], direction: 'both' },
        { edgeTypes: [edgeType], direction: 'both' },
      ],
    });
    times.push(performance.now() - started);
    reached += paths.length;
  }
  const warm = times.slice(5).sort((a, b) => a - b);
  console.log(
    `${label}: 2-hop expansion, 50 seeds, edge type ${edgeType} (both ways): p50 ${percentile(warm, 0.5).toFixed(1)} ms, p95 ${percentile(warm, 0.95).toFixed(1)} ms (35 warm runs, mean ${Math.round(reached / times.length)} paths)`,
  );
  const names = (await store.doCypher('MATCH (n:Node) RETURN n.name', { maxRows: 2_000_000 })).rows.map(
    (r) => r[0] as string,
  );
  const batch = Array.from({ length: 100 }, (_, i) => {
    const name = names[Math.floor(next() * names.length)]!;
    return i % 4 === 3 ? `${name.slice(0, -1)}x` : i % 4 === 2 ? name.toUpperCase() : name;
  });
  let started = performance.now();
  await store.doLookup(batch.slice(0, 1));
  console.log(`${label}: name index load (first lookup): ${(performance.now() - started).toFixed(0)} ms`);
  started = performance.now();
  const matches = await store.doLookup(batch);
  const elapsed = performance.now() - started;
  console.log(
    `${label}: lookup of 100 names (¼ fuzzy): ${elapsed.toFixed(1)} ms (${(elapsed / 100).toFixed(2)} ms/name, ${matches.filter((m) => m.length > 0).length}/100 matched)`,
  );
}

const graphArgument = process.argv.indexOf('--graph');
if (graphArgument > 0) {
  const path = resolve(process.argv[graphArgument + 1]!);
  const store = await KuzuGraphStore.open(path);
  const stats = await store.doStats();
  const edgeType = Object.entries(stats.edgesByType).sort((a, b) => b[1] - a[1])[0]![0];
  await expansionBench(`${path} (${stats.nodes} nodes, ${stats.edges} edges)`, store, edgeType);
  await store.close();
} else {
  const bundlePath = join(sharedDirectory(), 'datasets', 'wordnet');
  const root = await mkdtemp(join(tmpdir(), 'weft-kuzu-bench-'));
  try {
    const bundle = await openBundle(bundlePath);
    const started = performance.now();
    const build = await buildKuzuGraph({
      directory: join(root, 'graph'),
      schema: bundle.schema,
      nodes: bundle.nodes(),
      edges: bundle.edges(),
    });
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `WordNet build (Node + Edge tables with a type column, COPY from CSV): ${build.nodes} nodes, ${build.edges} edges in ${seconds.toFixed(1)} s, peak RSS ${mib(process.resourceUsage().maxRSS * 1024)}, database ${mib(statSync(join(root, 'graph', databaseFileName)).size)}; phases ${JSON.stringify(build.timings)}`,
    );
    const store = await KuzuGraphStore.open(join(root, 'graph'));
    await expansionBench('WordNet', store, 'hypernym');
    await store.close();
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
