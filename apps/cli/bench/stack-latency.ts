/**
 * Latency of one stack (default: `default`) on a WordNet store, measured in-process and alone: each
 * query runs once, sequentially, after a warm-up, so other stacks' work (as in `weft eval`, which
 * always runs bm25 beside) and first-query start-up (the name index, the models) do not count.
 * Prints p50/p95/mean per query set and the LLM calls made.
 *
 *   ./dev node --conditions=@weft/source apps/cli/bench/stack-latency.ts [--db dir] [--stack default]
 *     [--set hybrid --set wn18rr] [--split val] [--max-queries 200] [--warmup 5]
 *
 * The store defaults to $WEFT_BENCH_DB or .weft/wordnet (trained by `weft train`); without one the
 * bench says so and exits 0.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { readQuerySet } from '@weft/eval';
import type { SkbSplit } from '@weft/spec';
import { repositoryRoot, sharedDirectory } from '../src/commands/demo.ts';
import { buildStack } from '../src/stacks/index.ts';
import { openStore } from '../src/store/open-store.ts';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    stack: { type: 'string', default: 'default' },
    set: { type: 'string', multiple: true },
    split: { type: 'string', default: 'val' },
    'max-queries': { type: 'string', default: '200' },
    warmup: { type: 'string', default: '5' },
  },
});
const root = repositoryRoot();
const db = path.resolve(values.db ?? process.env.WEFT_BENCH_DB ?? path.join(root, '.weft', 'wordnet'));
if (!existsSync(path.join(db, 'store.json'))) {
  console.log(
    `stack-latency: no store at ${db} (run weft ingest + weft train, or set WEFT_BENCH_DB); skipped`,
  );
  process.exit(0);
}
const bundle = path.join(sharedDirectory(root), 'datasets', 'wordnet');
const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

const store = await openStore(db);
try {
  const retriever = await buildStack(values.stack, store);
  for (const set of values.set ?? ['hybrid', 'wn18rr']) {
    const all = await readQuerySet(bundle, set, { split: values.split as SkbSplit });
    const queries = all.slice(0, Number(values['max-queries']));
    for (const query of all.slice(-Number(values.warmup)))
      await retriever.doRetrieve({ query: query.query, limit: 100 });
    const times: number[] = [];
    let llmCalls = 0;
    for (const query of queries) {
      const started = performance.now();
      const { trace } = await retriever.doRetrieve({ query: query.query, limit: 100 });
      times.push(performance.now() - started);
      llmCalls += trace.llmCalls;
    }
    times.sort((a, b) => a - b);
    const mean = times.reduce((s, t) => s + t, 0) / Math.max(1, times.length);
    console.log(
      `${set.padEnd(8)} ${values.stack} n=${times.length} (limit 100)  p50 ${percentile(times, 50).toFixed(1)} ms  p95 ${percentile(times, 95).toFixed(1)} ms  mean ${mean.toFixed(1)} ms  LLM calls ${llmCalls}`,
    );
  }
} finally {
  await store.close();
}
