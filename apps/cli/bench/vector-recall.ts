import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { LanceVectorIndex } from '@weft/index-lancedb';
import type { IndexFilter, VectorIndexV1 } from '@weft/spec';
import { createStack } from '@weft/stacks';
import { openStore } from '@weft/store';
import { nameQuery, sampledBundleNodes } from './sampled-nodes.ts';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    queries: { type: 'string' },
    n: { type: 'string', default: '40' },
    k: { type: 'string', default: '300' },
    factor: { type: 'string', multiple: true },
    type: { type: 'string', multiple: true },
  },
});
if (!values.db) throw new Error('give --db <store>');
const n = Number(values.n);
const k = Number(values.k);
const factors = (values.factor ?? ['1', '2']).map(Number);
const db = path.resolve(values.db);
const store = await openStore(db);
const manifest = store.manifest as unknown as {
  bundle: { path: string };
  indexes: { vector?: { path: string; embedder: string; annIndex?: string } };
};
if (!manifest.indexes.vector || !store.context.vector || !store.context.embeddingModel)
  throw new Error('the store has no vector index');
console.log(`${db}: ANN index ${manifest.indexes.vector.annIndex ?? '?'}`);

const queries: string[] = [];
if (values.queries) {
  for (const line of (await readFile(values.queries, 'utf8')).split('\n')) {
    if (line.trim()) queries.push((JSON.parse(line) as { query: string }).query);
    if (queries.length >= n) break;
  }
} else {
  for (const node of await sampledBundleNodes(manifest.bundle.path, n)) queries.push(nameQuery(node.name));
}

// The filtered searches the default stack makes, recorded.
const calls: { vector: number[]; filter: IndexFilter }[] = [];
const vector = store.context.vector as VectorIndexV1 & { doSearch: VectorIndexV1['doSearch'] };
const doSearch = vector.doSearch.bind(vector);
vector.doSearch = async (options) => {
  if (options.filter) for (const v of options.vectors) calls.push({ vector: [...v], filter: options.filter });
  return doSearch(options);
};
const retriever = await createStack('default', store);
const { embeddings } = await store.context.embeddingModel.doEmbed({ values: queries });
for (const query of queries) await retriever.doRetrieve({ query, limit: 20 });

const location = path.resolve(db, manifest.indexes.vector.path);
const open = (options: { exact?: boolean; filterProbeFactor?: number }) =>
  LanceVectorIndex.open(location, { embedderId: manifest.indexes.vector!.embedder, ...options });
const exact = await open({ exact: true });
const variants: [string, LanceVectorIndex][] = [
  ['old (filter opens all)', await open({ filterProbeFactor: Infinity })],
  ...(await Promise.all(
    factors.map(
      async (f) => [`factor ${f}`, await open({ filterProbeFactor: f })] as [string, LanceVectorIndex],
    ),
  )),
];

async function measure(label: string, searches: { vector: number[]; filter?: IndexFilter }[]) {
  if (!searches.length) return console.log(`${label}: no searches`);
  const truth: string[][] = [];
  for (const s of searches)
    truth.push(
      (
        await exact.doSearch({ vectors: [s.vector], limit: k, ...(s.filter ? { filter: s.filter } : {}) })
      )[0]!.map((h) => h.id),
    );
  const filters = new Map<string, number>();
  for (const s of searches) {
    const key = JSON.stringify(s.filter?.nodeTypes ?? s.filter?.ids?.length ?? 'none');
    filters.set(key, (filters.get(key) ?? 0) + 1);
  }
  console.log(
    `${label}: ${searches.length} searches, k ${k}, filters ${JSON.stringify([...filters]).slice(0, 300)}`,
  );
  for (const [name, index] of variants) {
    let r100 = 0;
    let r300 = 0;
    let returned = 0;
    let ms = 0;
    for (const [i, s] of searches.entries()) {
      const at = performance.now();
      const hits = (
        await index.doSearch({ vectors: [s.vector], limit: k, ...(s.filter ? { filter: s.filter } : {}) })
      )[0]!;
      ms += performance.now() - at;
      const ids = hits.map((h) => h.id);
      const t = truth[i]!;
      const recall = (at: number) => {
        const want = t.slice(0, at);
        if (!want.length) return 1;
        const got = new Set(ids.slice(0, at));
        return want.filter((id) => got.has(id)).length / want.length;
      };
      r100 += recall(100);
      r300 += recall(300);
      returned += ids.length;
    }
    const m = searches.length;
    console.log(
      `  ${name.padEnd(24)} recall@100 ${(r100 / m).toFixed(3)}  recall@300 ${(r300 / m).toFixed(3)}  results ${(returned / m).toFixed(0)} (exact ${(truth.reduce((a, t) => a + t.length, 0) / m).toFixed(0)})  ${(ms / m).toFixed(1)} ms/search`,
    );
  }
}

await measure(
  'unfiltered',
  embeddings.map((v) => ({ vector: [...v] })),
);
await measure("filtered (the default stack's)", calls);
for (const type of values.type ?? [])
  await measure(
    `filtered to ${type}`,
    embeddings.map((v) => ({ vector: [...v], filter: { nodeTypes: [type] } })),
  );
for (const [, index] of variants) await index.close();
await exact.close();
await store.close();
