import path from 'node:path';
import { parseArgs } from 'node:util';
import { createStack } from '@weft/stacks';
import { openStore } from '@weft/store';
import { nameQuery, sampledBundleNodes } from './sampled-nodes.ts';

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
// The first sampled node's full name is looked up exactly; their first words are the queries.
const sampled = await sampledBundleNodes(store.manifest.bundle.path, n + 1);
const fullName = sampled[0]?.name ?? '';
const names = sampled.map((node) => nameQuery(node.name));
const ids = sampled.map((node) => node.id);
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
