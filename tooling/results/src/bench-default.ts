/**
 * Latency of the `default` stack on a WordNet store: runs `weft eval` on the hybrid and wn18rr val
 * queries and prints p50/p95 per query and the LLM calls made.
 *
 *   ./dev node --conditions=@weft/source tooling/results/src/bench-default.ts [--db <store>] [--max-queries N]
 *
 * The store defaults to $WEFT_BENCH_DB or .weft/wordnet; without one the bench says so and exits 0.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

function repoRoot(): string {
  let dir = import.meta.dirname;
  while (!fs.existsSync(path.join(dir, 'pnpm-workspace.yaml'))) dir = path.dirname(dir);
  return dir;
}
const root = repoRoot();
const { values } = parseArgs({
  options: {
    db: { type: 'string', default: process.env.WEFT_BENCH_DB ?? path.join(root, '.weft/wordnet') },
    bundle: {
      type: 'string',
      default: path.join(process.env.WEFT_SHARED ?? path.resolve(root, '../shared'), 'datasets/wordnet'),
    },
    'max-queries': { type: 'string', default: '200' },
    stack: { type: 'string', default: 'default' },
  },
});
if (!fs.existsSync(path.join(values.db, 'store.json'))) {
  console.log(
    `bench-default: no store at ${values.db} (run weft ingest + weft train, or set WEFT_BENCH_DB); skipped`,
  );
  process.exit(0);
}
interface StackResult {
  readonly stack: string;
  readonly hit1: number;
  readonly latencyMs: { readonly p50: number; readonly p95: number };
  readonly llmCallsPerQuery: number;
}
for (const set of ['hybrid', 'wn18rr']) {
  const args = [
    'eval',
    values.bundle,
    '--db',
    values.db,
    '--set',
    set,
    '--split',
    'val',
    '--stack',
    values.stack,
  ];
  args.push('--max-queries', values['max-queries'], '--json');
  const out = execFileSync(path.join(root, 'weft'), args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  const report = JSON.parse(out) as { n: number; stacks: StackResult[] };
  for (const s of report.stacks) {
    if (s.stack === 'bm25' && values.stack !== 'bm25') continue;
    console.log(
      `${set.padEnd(8)} ${s.stack.padEnd(16)} n=${report.n}  p50 ${s.latencyMs.p50.toFixed(1)} ms  p95 ${s.latencyMs.p95.toFixed(1)} ms  LLM calls/query ${s.llmCallsPerQuery}  (Hit@1 ${s.hit1.toFixed(1)})`,
    );
  }
}
