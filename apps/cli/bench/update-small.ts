/**
 * A small update on a large store (issue 48, "Updates without copying the graph"): about 10 changed
 * nodes — 5 texts rewritten, 2 nodes renamed, 2 new nodes with 3 edges each, 1 node deleted —
 * applied by `weft update --json` in its own process, `--rounds` times (each round other nodes),
 * reporting the update's time (its own and with process start), whether the graph was changed in
 * place, and the store's growth on disk (every file under it, hard links once, allocated blocks),
 * the graph's and the LanceDB table's apart. Targets on the 10^6-node store: < 5 s, growth < 5 %.
 *
 *   ./dev node --conditions=@weft/source apps/cli/bench/update-small.ts --bundle <synthetic bundle> --store <dir> [--rounds 3] [--from 1] [--copy]
 *
 * `--store`: built from `--bundle` by `weft ingest` when it holds no store (timed), else updated as it
 * is (it is changed: use a copy to keep one). `--copy`: each update with `weft update --copy`
 * (today's copying path, to compare). The bundle is a `weft synth-kb` one (or any bundle whose
 * first schema edge types fit its node types).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openBundle } from '@weft/skb';
import type { SkbEdge, SkbNode } from '@weft/spec';
import { directoryBytes } from '@weft/store';
import { repositoryRoot } from '../src/commands/demo.ts';

const { values } = parseArgs({
  options: {
    bundle: { type: 'string' },
    store: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    // The first round's number: a store updated before takes rounds after those (other nodes).
    from: { type: 'string', default: '1' },
    copy: { type: 'boolean' },
  },
});
if (!values.bundle || !values.store) {
  console.error('usage: update-small.ts --bundle <bundle> --store <dir> [--rounds 3] [--copy]');
  process.exit(2);
}
const bundle = path.resolve(values.bundle);
const store = path.resolve(values.store);
const weft = path.join(repositoryRoot(), 'weft');
const run = (args: string[]) =>
  execFileSync(weft, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 26 });
const jsonl = (records: readonly unknown[]) => records.map((r) => `${JSON.stringify(r)}\n`).join('');

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

/** Every `stride`-th node of the bundle's target types, with their position, read in one pass. */
async function sampleNodes(count: number): Promise<SkbNode[]> {
  const opened = await openBundle(bundle);
  const targets = new Set(opened.schema.targetTypes ?? opened.schema.nodeTypes.map((t) => t.name));
  let total = 0;
  for await (const _ of opened.nodes()) total++;
  const stride = Math.max(1, Math.floor(total / count));
  const picked: SkbNode[] = [];
  let i = 0;
  for await (const node of (await openBundle(bundle)).nodes()) {
    if (i++ % stride === 0 && targets.has(node.type)) picked.push(node);
  }
  return picked;
}

const opened = await openBundle(bundle);
const allowed = (from: string, to: string) =>
  opened.schema.edgeTypes.find((t) => (t.from === '*' || t.from === from) && (t.to === '*' || t.to === to))
    ?.name;

/** Round `round`'s change set: 10 upserts (5 retexted, 2 renamed, 2 new with 3 edges each) and 1 deletion. */
async function writeChanges(pool: readonly SkbNode[], round: number, directory: string): Promise<void> {
  const pick = (i: number) => pool[(round * 11 + i * 7) % pool.length]!;
  const retexted = [0, 1, 2, 3, 4].map((i) => ({
    ...pick(i),
    text: `${pick(i).text} Revised in round ${round}: new results on glimmerstone ${i}.`,
  }));
  const renamed = [5, 6].map((i) => ({ ...pick(i), name: `${pick(i).name} (renamed ${round})` }));
  const deleted = pick(7).id;
  const added: SkbNode[] = [0, 1].map((i) => ({
    id: `small-update-${round}-${i}`,
    type: pick(8 + i).type,
    name: `Glimmerstone note ${round}.${i}`,
    text: `A new note on glimmerstone lattices, number ${i} of round ${round}.`,
  }));
  const edges: SkbEdge[] = added.flatMap((node, i) =>
    [pick(20 + i), pick(30 + i), pick(40 + i)].flatMap((other, k) => {
      const [src, dst] = k === 1 ? [other, node] : [node, other];
      const type = allowed(src.type, dst.type);
      return type && src.id !== deleted && dst.id !== deleted ? [{ src: src.id, type, dst: dst.id }] : [];
    }),
  );
  await mkdir(directory, { recursive: true });
  await writeFile(path.join(directory, 'nodes.jsonl'), jsonl([...retexted, ...renamed, ...added]));
  await writeFile(path.join(directory, 'edges.jsonl'), jsonl(edges));
  await writeFile(path.join(directory, 'deletions.jsonl'), jsonl([{ node: deleted }]));
}

if (!existsSync(path.join(store, 'store.json'))) {
  const started = performance.now();
  const ingest = JSON.parse(run(['ingest', bundle, '--db', store, '--json'])) as {
    nodes: number;
    edges: number;
  };
  console.log(
    `update-small ingest: ${ingest.nodes} nodes, ${ingest.edges} edges in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}
const pool = await sampleNodes(2_000);
const scratch = await mkdtemp(path.join(os.tmpdir(), 'weft-update-small-'));
try {
  const storeBytes = await directoryBytes(store, { allocated: true });
  const manifest = JSON.parse(run(['info', '--db', store, '--json'])) as { storeVersion?: number };
  console.log(
    `update-small store ${store}: ${mib(storeBytes)} on disk at version ${manifest.storeVersion ?? 0}; ${values.copy ? 'copying updates (--copy)' : 'default updates'}`,
  );
  let previous = storeBytes;
  const first = Number(values.from);
  for (let round = first; round < first + Number(values.rounds); round++) {
    const changes = path.join(scratch, `changes-${round}`);
    await writeChanges(pool, round, changes);
    const started = performance.now();
    const applied = JSON.parse(
      run(['update', '--db', store, changes, '--json', ...(values.copy ? ['--copy'] : [])]),
    ) as {
      seconds: number;
      mode: string;
      copyReason: string | null;
      nodesUpserted: number;
      nodesDeleted: number;
      edgesUpserted: number;
      rowsRewritten: number;
      version: number;
      timings: Record<string, number>;
    };
    const wall = (performance.now() - started) / 1000;
    const now = await directoryBytes(store, { allocated: true });
    console.log(
      `update-small round ${round}: version ${applied.version}, ${applied.nodesUpserted} upserts, ${applied.nodesDeleted} deletion, ${applied.edgesUpserted} edges; ${applied.mode}${applied.copyReason ? ` (${applied.copyReason})` : ''}; ${applied.seconds} s (${wall.toFixed(1)} s with process start); ${applied.rowsRewritten} index rows; store ${mib(now)}: +${mib(now - previous)} this update (${((100 * (now - previous)) / previous).toFixed(2)} %), +${((100 * (now - storeBytes)) / storeBytes).toFixed(2)} % since the first; phases ${JSON.stringify(applied.timings)}`,
    );
    previous = now;
  }
} finally {
  await rm(scratch, { recursive: true, force: true });
}
