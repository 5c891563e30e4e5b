/**
 * `weft update` against a full ingest, on the synthetic KB of 135,000 nodes and 724,000 edges
 * (`weft synth-kb`; goal: applying 1,000 node upserts with their edges and 100 deletions takes < 5 %
 * of the ingest), and bm25-rel's query latency (p50) while an update runs against idle (goal: within
 * 2×). Each ingest and update runs as `weft … --json` in its own process; the queries run in this one.
 *
 *   ./dev node --conditions=@weft/source apps/cli/bench/update-speed.ts [--nodes 135000 --edges 724000]
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openBundle } from '@weft/skb';
import type { SkbEdge, SkbNode } from '@weft/spec';
import { createStack } from '@weft/stacks';
import { openStore } from '@weft/store';
import { repositoryRoot } from '../src/commands/demo.ts';

const { values } = parseArgs({
  options: {
    nodes: { type: 'string', default: '135000' },
    edges: { type: 'string', default: '724000' },
    // Work in this folder and keep it (to look at the store afterwards).
    keep: { type: 'string' },
  },
});
const weft = path.join(repositoryRoot(), 'weft');
const run = (args: string[]) =>
  execFileSync(weft, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
const jsonl = (records: readonly unknown[]) => records.map((r) => `${JSON.stringify(r)}\n`).join('');

/**
 * 1,000 node upserts (500 papers with a new abstract, 500 new papers, each new one with an author,
 * a field and two citations) and 100 deletions (papers, with their edges).
 */
async function writeChanges(bundle: string, directory: string, round: number): Promise<void> {
  const opened = await openBundle(bundle);
  const papers: SkbNode[] = [];
  let authors = 0;
  let fields = 0;
  for await (const node of opened.nodes()) {
    if (node.type === 'paper') papers.push(node);
    else if (node.type === 'author') authors++;
    else if (node.type === 'field') fields++;
  }
  const stride = Math.floor(papers.length / 1200);
  const pick = (i: number) => papers[(i * stride + round) % papers.length]!;
  const changed = Array.from({ length: 500 }, (_, i) => ({
    ...pick(i),
    text: `${pick(i).text} Revised in round ${round}: new results on glimmerstone ${i}.`,
  }));
  const added: SkbNode[] = Array.from({ length: 500 }, (_, i) => ({
    id: `paper:update-${round}-${i}`,
    type: 'paper',
    name: `Glimmerstone study ${round}.${i}`,
    text: `A new study of glimmerstone lattices, number ${i} of round ${round}.`,
    props: { year: 2026 },
  }));
  const edges: SkbEdge[] = added.flatMap((paper, i) => [
    { src: paper.id, type: 'written_by', dst: `author:${(i * 37) % authors}` },
    { src: paper.id, type: 'has_field', dst: `field:${i % fields}` },
    { src: paper.id, type: 'cites', dst: pick(i + 1).id },
    { src: pick(i + 2).id, type: 'cites', dst: paper.id },
  ]);
  const deleted = Array.from({ length: 100 }, (_, i) => pick(600 + i).id);
  await mkdir(directory, { recursive: true });
  await writeFile(path.join(directory, 'nodes.jsonl'), jsonl([...changed, ...added]));
  await writeFile(
    path.join(directory, 'edges.jsonl'),
    jsonl(edges.filter((e) => !deleted.includes(e.src) && !deleted.includes(e.dst))),
  );
  await writeFile(path.join(directory, 'deletions.jsonl'), jsonl(deleted.map((node) => ({ node }))));
}

const p50 = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;

const scratch = values.keep ?? (await mkdtemp(path.join(os.tmpdir(), 'weft-update-bench-')));
await mkdir(scratch, { recursive: true });
try {
  const bundle = path.join(scratch, 'synthetic');
  run(['synth-kb', '--out', bundle, '--nodes', values.nodes!, '--edges', values.edges!, '--seed', '1']);
  const store = path.join(scratch, 'store');
  const ingest = JSON.parse(run(['ingest', bundle, '--db', store, '--json'])) as {
    nodes: number;
    edges: number;
    seconds: number;
  };
  console.log(
    `update-speed ingest: ${ingest.nodes.toLocaleString('en-US')} nodes, ${ingest.edges.toLocaleString('en-US')} edges in ${ingest.seconds} s`,
  );

  await writeChanges(bundle, path.join(scratch, 'changes-1'), 1);
  await writeChanges(bundle, path.join(scratch, 'changes-2'), 2);
  const started = performance.now();
  const update = JSON.parse(run(['update', '--db', store, path.join(scratch, 'changes-1'), '--json'])) as {
    seconds: number;
    rowsRewritten: number;
    timings: Record<string, number>;
  };
  const wall = (performance.now() - started) / 1000;
  console.log(
    `update-speed update: 1,000 node upserts (+2,000 edges) and 100 deletions in ${update.seconds} s (${wall.toFixed(1)} s with process start) = ${((100 * update.seconds) / ingest.seconds).toFixed(1)} % of the ingest; ${update.rowsRewritten} index rows rewritten; phases ${JSON.stringify(update.timings)}`,
  );

  const opened = await openStore(store);
  try {
    const retriever = await createStack('bm25-rel', opened);
    const queries = ['glimmerstone lattices', 'new results on glimmerstone', 'Glimmerstone study 1.7'];
    const bundleQueries = await openBundle(bundle);
    for await (const node of bundleQueries.nodes()) {
      if (node.type === 'paper') queries.push(node.name);
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
    const child = spawn(weft, ['update', '--db', store, path.join(scratch, 'changes-2'), '--json'], {
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    let running = true;
    void exited.then(() => {
      running = false;
    });
    for (let i = 0; running; i++) busy.push(await time(queries[i % queries.length]!));
    if ((await exited) !== 0) throw new Error('the concurrent update failed');
    console.log(
      `update-speed query p50 (bm25-rel): idle ${p50(idle).toFixed(1)} ms (${idle.length} queries), during an update ${p50(busy).toFixed(1)} ms (${busy.length} queries) = ${(p50(busy) / p50(idle)).toFixed(2)}× idle`,
    );
  } finally {
    await opened.close();
  }
} finally {
  if (!values.keep) await rm(scratch, { recursive: true, force: true });
}
