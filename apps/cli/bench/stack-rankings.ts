/**
 * Per-stage time and the rankings of one stack on the queries `stack-latency.ts` synthesises (same
 * seed): to see where a query's time goes, and to check that a speed-up leaves every ranking as it was
 * (`--out` writes each query's ranked ids and scores; compare two such files with `--compare`).
 *
 *   ./dev node --conditions=@weft/source apps/cli/bench/stack-rankings.ts --db dir [--stack default] [--n 45] [--out file.json] [--repeat 1]
 *   ./dev node --conditions=@weft/source apps/cli/bench/stack-rankings.ts --compare a.json b.json
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createStack } from '@weft/stacks';
import { openStore } from '@weft/store';
import { benchQueries, percentile } from './bench-queries.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    db: { type: 'string' },
    stack: { type: 'string', default: 'default' },
    n: { type: 'string', default: '45' },
    out: { type: 'string' },
    repeat: { type: 'string', default: '1' },
    compare: { type: 'boolean', default: false },
  },
});

type Rankings = Record<string, { id: string; score: number }[]>;

if (values.compare) {
  const [a, b] = positionals.map((file) => JSON.parse(readFileSync(file!, 'utf8')) as Rankings);
  let same = 0;
  const differ: string[] = [];
  for (const [query, ranking] of Object.entries(a!)) {
    const other = b![query];
    const key = (r: { id: string; score: number }[] | undefined) =>
      JSON.stringify(r?.map((c) => [c.id, Number(c.score.toPrecision(12))]));
    if (key(ranking) === key(other)) same++;
    else differ.push(query);
  }
  console.log(`${same} of ${Object.keys(a!).length} rankings identical (ids and scores)`);
  for (const query of differ) console.log(`  differs: ${query}`);
  process.exit(differ.length > 0 ? 1 : 0);
}

const n = Number(values.n);
const store = await openStore(values.db!);
try {
  const retriever = await createStack(values.stack!, store);
  const { hybrid, text } = await benchQueries(store.context, n);
  const queries = [...hybrid, ...text].map((q) => q.query);
  for (const query of queries.slice(-5)) await retriever.doRetrieve({ query, limit: 100 });
  const stageTimes = new Map<string, number[]>();
  const totals: number[] = [];
  const cpu: number[] = [];
  const rankings: Rankings = {};
  for (let r = 0; r < Number(values.repeat); r++) {
    for (const query of queries) {
      const before = process.cpuUsage();
      const { ranking, trace } = await retriever.doRetrieve({ query, limit: 100 });
      const used = process.cpuUsage(before);
      cpu.push((used.user + used.system) / 1000);
      totals.push(trace.durationMs);
      for (const stage of trace.stages) {
        const key = `${stage.kind}:${stage.name}`;
        (stageTimes.get(key) ?? stageTimes.set(key, []).get(key)!).push(stage.durationMs);
      }
      rankings[query] = ranking.map((c) => ({ id: c.id, score: c.score }));
    }
  }
  const line = (label: string, times: number[]) => {
    const sorted = [...times].sort((a, b) => a - b);
    const mean = sorted.reduce((s, t) => s + t, 0) / Math.max(1, sorted.length);
    return `${label.padEnd(32)} p50 ${percentile(sorted, 50).toFixed(1).padStart(7)} ms  p95 ${percentile(sorted, 95).toFixed(1).padStart(7)} ms  mean ${mean.toFixed(1).padStart(7)} ms`;
  };
  console.log(line(`total (${values.stack}, ${queries.length} queries)`, totals));
  console.log(line('process CPU (all threads)', cpu));
  for (const [key, times] of stageTimes) console.log(line(`  ${key}`, times));
  if (values.out) writeFileSync(values.out, JSON.stringify(rankings));
} finally {
  await store.close();
}
