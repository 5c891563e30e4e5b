/**
 * Speed of `weft eval` with bm25 on 1,000 WordNet queries (goal: under 30 s). Builds the demo store
 * first when it is missing (`weft demo` does the same).
 *   ./dev node --conditions=@weft/source apps/cli/bench/eval-bm25.ts [--db dir] [--set wn18rr] [--n 1000]
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openStoreFromDisk } from '../src/commands/command-deps.ts';
import { repositoryRoot, sharedDirectory } from '../src/commands/demo.ts';
import { runEvaluation } from '../src/commands/eval.ts';
import { commands } from '../src/commands/index.ts';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    set: { type: 'string' },
    n: { type: 'string' },
    concurrency: { type: 'string' },
  },
});
const root = repositoryRoot();
const db = path.resolve(values.db ?? path.join(root, '.weft', 'wordnet'));
const bundle = path.join(sharedDirectory(root), 'datasets', 'wordnet');
const set = values.set ?? 'wn18rr';
const n = Number(values.n ?? 1000);
if (!existsSync(path.join(db, 'store.json'))) {
  const ingest = commands.find((c) => c.name === 'ingest');
  if (!ingest) throw new Error('no ingest command in this build');
  const code = await ingest.run(
    { positionals: [bundle], values: { db } },
    { stdout: process.stderr, stderr: process.stderr, cwd: process.cwd() },
  );
  if (code !== 0) process.exit(code);
}
const store = await openStoreFromDisk(db);
try {
  const started = performance.now();
  const summary = await runEvaluation({
    bundle,
    store,
    set,
    split: 'test',
    stacks: ['bm25'],
    listLength: 100,
    concurrency: Number(values.concurrency ?? 4),
    maxQueries: n,
    stderr: process.stderr,
    quiet: true,
  });
  const seconds = (performance.now() - started) / 1000;
  const bm25 = summary.stacks[0]!;
  console.log(
    `eval bm25 on ${summary.n} ${set} test queries: ${seconds.toFixed(1)} s (${((1000 * seconds) / summary.n).toFixed(1)} ms/query; p50 ${bm25.latencyMs.p50} ms, p95 ${bm25.latencyMs.p95} ms; goal < 30 s for 1,000) — Hit@1 ${bm25.hit1}, MRR ${bm25.mrr}`,
  );
} finally {
  await store.close();
}
