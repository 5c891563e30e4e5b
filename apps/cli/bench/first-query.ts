/**
 * Where the first query of a new process spends its time, in-process and step by step: opening the
 * store, the first name look-up (builds the name index), the first expansion (loads or reads the
 * adjacency), the first BM25 and vector searches, then the default stack's first query and its warm
 * p50 over the next ones. Queries are node names from the store's bundle.
 *
 *   ./dev node --conditions=@weft/source apps/cli/bench/first-query.ts --db /tmp/synth-1m-store [--stack default] [--n 50]
 */
import { createReadStream, existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { createGunzip } from 'node:zlib';
import { createStack } from '@weft/stacks';
import { openStore } from '@weft/store';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    stack: { type: 'string', default: 'default' },
    n: { type: 'string', default: '50' },
  },
});
if (!values.db) throw new Error('give --db <store>');
const n = Number(values.n);
const started = performance.now();
let last = started;
const lap = (label: string) => {
  const now = performance.now();
  console.log(
    `first-query ${label}: ${(now - last).toFixed(0)} ms (${((now - started) / 1000).toFixed(2)} s since start, rss ${Math.round(process.memoryUsage().rss / 2 ** 20)} MiB)`,
  );
  last = now;
};

const store = await openStore(path.resolve(values.db));
lap('open store');
const names: string[] = [];
const ids: string[] = [];
let fullName = '';
// Bundles keep their nodes plain or gzipped (the shared WordNet bundle has nodes.jsonl.gz only).
const nodesFile = path.join(store.manifest.bundle.path, 'nodes.jsonl');
const lines = createInterface({
  input: existsSync(nodesFile)
    ? createReadStream(nodesFile)
    : createReadStream(`${nodesFile}.gz`).pipe(createGunzip()),
});
let line = 0;
for await (const text of lines) {
  if (line++ % 997 !== 5) continue;
  const node = JSON.parse(text) as { id: string; name: string };
  fullName ||= node.name;
  names.push(node.name.split(' ').slice(0, 3).join(' '));
  ids.push(node.id);
  if (names.length >= n + 1) break;
}
lines.close();
last = performance.now();
try {
  await store.graph.doLookup([fullName], { limit: 5, fuzzy: false });
  lap('first exact name look-up (loads the name index)');
  await store.graph.doLookup([names[0]!], { limit: 5 });
  lap('first fuzzy name look-up (builds the trigram postings)');
  await store.graph.doNeighbors({ seeds: [ids[0]!], direction: 'both' });
  const info = (store.graph as { adjacencyInfo?: { source?: string; milliseconds: number } }).adjacencyInfo;
  lap(`first expansion (adjacency${info?.source ? ` from the ${info.source}` : ''})`);
  await store.context.text.doSearch({ queries: [names[0]!], limit: 10 });
  lap('first BM25 search');
  if (store.context.vector && store.context.embeddingModel) {
    const { embeddings } = await store.context.embeddingModel.doEmbed({ values: [names[0]!] });
    await store.context.vector.doSearch({ vectors: embeddings, limit: 10 });
    lap('first vector search');
  }
  const retriever = await createStack(values.stack!, store);
  lap(`create the ${values.stack} stack`);
  await retriever.doRetrieve({ query: names[0]!, limit: 20 });
  lap(`first ${values.stack} query`);
  const times: number[] = [];
  for (const query of names.slice(1)) {
    const at = performance.now();
    await retriever.doRetrieve({ query, limit: 20 });
    times.push(performance.now() - at);
  }
  times.sort((a, b) => a - b);
  const p = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(1);
  console.log(`first-query ${values.stack} warm: n=${times.length} p50 ${p(0.5)} ms p95 ${p(0.95)} ms`);
} finally {
  await store.close();
}
