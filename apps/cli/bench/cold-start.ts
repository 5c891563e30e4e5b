/**
 * Cold start of the CLI: wall time of `weft --version`, `weft --help`, and of one `weft query` in a
 * new process (store opened, first query answered, process exited) per stack. The first default
 * query runs without the saved adjacency (`graph/adjacency.weft-csr`, removed first with --fresh),
 * the later ones with it. Queries are node names from the store's bundle (the first words of every
 * 997th node), so the bench opens nothing in its own process.
 *
 *   ./dev node apps/cli/bench/cold-start.ts --db /tmp/synth-1m-store [--runs 3] [--stack default --stack bm25] [--fresh]
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { nameQuery, sampledBundleNodes } from './sampled-nodes.ts';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    runs: { type: 'string', default: '3' },
    stack: { type: 'string', multiple: true },
    fresh: { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
const stacks = values.stack ?? ['bm25', 'default'];
const main = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'weft.mjs');
const nodeArgs = ['--conditions=@weft/source', '--disable-warning=ExperimentalWarning', main];

interface Timed {
  readonly seconds: number;
  /** Peak RSS and user + system CPU seconds, from GNU time when installed. */
  readonly rssMiB?: number;
  readonly cpu?: number;
}

/** Runs `weft …` once. CPU time is printed beside wall time: on a shared machine it varies less. */
function weft(args: string[]): Timed {
  const time = existsSync('/usr/bin/time');
  const command = time ? '/usr/bin/time' : process.execPath;
  const argv = time
    ? ['-f', 'maxrss=%M cpu=%U+%S', process.execPath, ...nodeArgs, ...args]
    : [...nodeArgs, ...args];
  const started = performance.now();
  const ran = spawnSync(command, argv, { encoding: 'utf8', maxBuffer: 64 << 20 });
  const seconds = (performance.now() - started) / 1000;
  if (ran.status !== 0)
    throw new Error(`weft ${args.join(' ')} failed (${ran.status}): ${ran.stderr.slice(-2000)}`);
  const usage = /maxrss=(\d+) cpu=([\d.]+)\+([\d.]+)/.exec(ran.stderr);
  return {
    seconds,
    ...(usage
      ? { rssMiB: Math.round(Number(usage[1]) / 1024), cpu: Number(usage[2]) + Number(usage[3]) }
      : {}),
  };
}

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const show = (label: string, times: Timed[]) =>
  console.log(
    `cold-start ${label}: ${times.map((t) => `${t.seconds.toFixed(2)} s${t.cpu !== undefined ? ` (cpu ${t.cpu.toFixed(2)} s, ${t.rssMiB} MiB)` : ''}`).join(', ')}  median ${median(times.map((t) => t.seconds)).toFixed(2)} s`,
  );

for (const args of [['--version'], ['--help']]) {
  show(
    `weft ${args.join(' ')}`,
    Array.from({ length: runs }, () => weft(args)),
  );
}

if (values.db) {
  const db = path.resolve(values.db);
  const manifest = JSON.parse(await readFile(path.join(db, 'store.json'), 'utf8')) as {
    bundle: { path: string };
    counts: { nodes: number; edges: number };
    graph: { provider: string; path: string };
  };
  const queries = (await sampledBundleNodes(manifest.bundle.path, runs + 1)).map((node) =>
    nameQuery(node.name),
  );
  console.log(
    `cold-start store ${db}: ${manifest.counts.nodes.toLocaleString('en-US')} nodes, ${manifest.counts.edges.toLocaleString('en-US')} edges, graph ${manifest.graph.provider}`,
  );
  const adjacencyFile = path.join(db, manifest.graph.path, 'adjacency.weft-csr');
  if (values.fresh) await rm(adjacencyFile, { force: true });
  for (const stack of stacks) {
    const saved = existsSync(adjacencyFile);
    const times = queries.map((query) => weft(['query', query, '--db', db, '--stack', stack, '--json']));
    show(
      `weft query --stack ${stack} (first process ${saved ? 'with' : 'without'} a saved adjacency)`,
      times,
    );
  }
}
