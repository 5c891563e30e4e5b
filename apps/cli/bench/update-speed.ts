/**
 * `weft update` against a full ingest, on WordNet 3.1 and on the synthetic KB of 135,000 nodes and
 * 724,000 edges (`weft synth-kb`); goal: applying 1,000 node upserts with their edges and 100 deletions takes < 5 %
 * of the ingest), and bm25-rel's query latency (p50) while an update runs against idle (goal: within
 * 2×). Each ingest and update runs as `weft … --json` in its own process; the queries run in this one.
 * The second update, the one run during the queries, is reported too: it starts from an updated
 * store, so it pays what the first does not (a graph grown past its compaction threshold, a table
 * whose earlier update fragments get compacted).
 *
 *   ./dev node --conditions=@weft/source apps/cli/bench/update-speed.ts [--skip-synthetic] [--nodes 135000 --edges 724000]
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildWordnetBundle } from '@weft/kb-wordnet';
import { openBundle } from '@weft/skb';
import type { SkbEdge, SkbNode } from '@weft/spec';
import { createStack } from '@weft/stacks';
import { openStore } from '@weft/store';
import { repositoryRoot } from '../src/commands/demo.ts';
import { benchWordnetBundle } from './bench-store.ts';

const { values } = parseArgs({
  options: {
    nodes: { type: 'string', default: '135000' },
    edges: { type: 'string', default: '724000' },
    // Work in this folder and keep it (to look at the store afterwards).
    keep: { type: 'string' },
    'skip-synthetic': { type: 'boolean' },
  },
});
const weft = path.join(repositoryRoot(), 'weft');
const run = (args: string[]) =>
  execFileSync(weft, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
const jsonl = (records: readonly unknown[]) => records.map((r) => `${JSON.stringify(r)}\n`).join('');

/**
 * 1,000 node upserts (500 nodes of the target types with a changed text, 500 new ones, each with four
 * edges to and from existing nodes, of an edge type the schema allows) and 100 deletions (with their
 * edges), spread evenly over the bundle's target nodes.
 */
async function writeChanges(bundle: string, directory: string, round: number): Promise<void> {
  const opened = await openBundle(bundle);
  const targets = new Set(opened.schema.targetTypes ?? opened.schema.nodeTypes.map((t) => t.name));
  const nodes: SkbNode[] = [];
  for await (const node of opened.nodes()) if (targets.has(node.type)) nodes.push(node);
  const stride = Math.max(1, Math.floor(nodes.length / 1300));
  const pick = (i: number) => nodes[(i * stride + round) % nodes.length]!;
  const allowed = (from: string, to: string) =>
    opened.schema.edgeTypes.find((t) => (t.from === '*' || t.from === from) && (t.to === '*' || t.to === to))
      ?.name;
  const changed = Array.from({ length: 500 }, (_, i) => ({
    ...pick(i),
    text: `${pick(i).text} Revised in round ${round}: new results on glimmerstone ${i}.`,
  }));
  const added: SkbNode[] = Array.from({ length: 500 }, (_, i) => ({
    id: `update-${round}-${i}`,
    type: pick(i).type,
    name: `Glimmerstone study ${round}.${i}`,
    text: `A new study of glimmerstone lattices, number ${i} of round ${round}.`,
  }));
  const deleted = new Set(Array.from({ length: 100 }, (_, i) => pick(600 + i).id));
  const edges: SkbEdge[] = added.flatMap((node, i) =>
    [
      [node, pick(i + 1)],
      [pick(i + 2), node],
      [node, pick(i + 3)],
      [pick(i + 4), node],
    ].flatMap(([src, dst]) => {
      const type = allowed(src!.type, dst!.type);
      return type && !deleted.has(src!.id) && !deleted.has(dst!.id)
        ? [{ src: src!.id, type, dst: dst!.id }]
        : [];
    }),
  );
  await mkdir(directory, { recursive: true });
  await writeFile(path.join(directory, 'nodes.jsonl'), jsonl([...changed, ...added]));
  await writeFile(
    path.join(directory, 'edges.jsonl'),
    jsonl([...new Map(edges.map((e) => [`${e.src} ${e.type} ${e.dst}`, e])).values()]),
  );
  await writeFile(path.join(directory, 'deletions.jsonl'), jsonl([...deleted].map((node) => ({ node }))));
}

/** Ingest, two updates and query latency on one KB, in `folder`. */
async function benchKb(name: string, bundle: string, folder: string): Promise<void> {
  await mkdir(folder, { recursive: true });
  const store = path.join(folder, 'store');
  const ingest = JSON.parse(run(['ingest', bundle, '--db', store, '--json'])) as {
    nodes: number;
    edges: number;
    seconds: number;
  };
  console.log(
    `update-speed ${name} ingest: ${ingest.nodes.toLocaleString('en-US')} nodes, ${ingest.edges.toLocaleString('en-US')} edges in ${ingest.seconds} s`,
  );

  await writeChanges(bundle, path.join(folder, 'changes-1'), 1);
  const edgeCount =
    (await readFile(path.join(folder, 'changes-1', 'edges.jsonl'), 'utf8')).split('\n').length - 1;
  await writeChanges(bundle, path.join(folder, 'changes-2'), 2);
  const started = performance.now();
  const update = JSON.parse(run(['update', '--db', store, path.join(folder, 'changes-1'), '--json'])) as {
    seconds: number;
    rowsRewritten: number;
    timings: Record<string, number>;
  };
  const wall = (performance.now() - started) / 1000;
  console.log(
    `update-speed ${name} update: 1,000 node upserts (+${edgeCount.toLocaleString('en-US')} edges) and 100 deletions in ${update.seconds} s (${wall.toFixed(1)} s with process start) = ${((100 * update.seconds) / ingest.seconds).toFixed(1)} % of the ingest; ${update.rowsRewritten} index rows rewritten; phases ${JSON.stringify(update.timings)}`,
  );

  const opened = await openStore(store);
  try {
    const retriever = await createStack('bm25-rel', opened);
    const queries = ['glimmerstone lattices', 'new results on glimmerstone', 'Glimmerstone study 1.7'];
    const bundleQueries = await openBundle(bundle);
    for await (const node of bundleQueries.nodes()) {
      queries.push(node.name);
      if (queries.length >= 200) break;
    }
    const time = async (query: string) => {
      const t = performance.now();
      await retriever.doRetrieve({ query, limit: 20 });
      return performance.now() - t;
    };
    for (const query of queries.slice(0, 20)) await time(query); // warm-up
    const idle: number[] = [];
    for (const query of queries) idle.push(await time(query));
    const busy: number[] = [];
    const child = spawn(weft, ['update', '--db', store, path.join(folder, 'changes-2'), '--json'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    let running = true;
    void exited.then(() => {
      running = false;
    });
    for (let i = 0; running; i++) busy.push(await time(queries[i % queries.length]!));
    if ((await exited) !== 0) throw new Error('the concurrent update failed');
    // The second update starts from an updated store: what an update costs from then on (the graph
    // and the table have grown or been compacted), though timed under the query load.
    const second = JSON.parse(output) as { seconds: number; timings: Record<string, number> };
    console.log(
      `update-speed ${name} second update (during the queries): ${second.seconds} s = ${((100 * second.seconds) / ingest.seconds).toFixed(1)} % of the ingest; phases ${JSON.stringify(second.timings)}`,
    );
    console.log(
      `update-speed ${name} query p50 (bm25-rel): idle ${p50(idle).toFixed(1)} ms (${idle.length} queries), during an update ${p50(busy).toFixed(1)} ms (${busy.length} queries) = ${(p50(busy) / p50(idle)).toFixed(2)}× idle`,
    );
  } finally {
    await opened.close();
  }
}

const p50 = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;

const scratch = values.keep ?? (await mkdtemp(path.join(os.tmpdir(), 'weft-update-bench-')));
await mkdir(scratch, { recursive: true });
try {
  const wordnet = benchWordnetBundle();
  // The bundle only: each KB's store is ingested here, timed.
  if (!existsSync(path.join(wordnet, 'SOURCE.md'))) {
    await mkdir(path.dirname(wordnet), { recursive: true });
    await buildWordnetBundle({ out: wordnet });
  }
  const kbs: [string, string][] = [['WordNet 3.1', wordnet]];
  if (!values['skip-synthetic']) {
    const synthetic = path.join(scratch, 'synthetic');
    run(['synth-kb', '--out', synthetic, '--nodes', values.nodes!, '--edges', values.edges!, '--seed', '1']);
    kbs.push([`synthetic ${values.nodes} nodes / ${values.edges} edges`, synthetic]);
  }
  for (const [name, bundle] of kbs)
    await benchKb(name, bundle, path.join(scratch, name.replace(/\W+/g, '-')));
} finally {
  if (!values.keep) await rm(scratch, { recursive: true, force: true });
}
