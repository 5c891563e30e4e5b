/**
 * `pnpm bench`: builds the LanceDB indexes of the WordNet bundle with the local embedder in a temp
 * directory and prints build time, peak RSS, retrieval quality (BM25 vs vector-only, metrics as in
 * shared/SKB-FORMAT.md), query latency and ANN recall against brute force.
 *   BENCH_INDEXES=ivf_flat,ivf_hnsw_sq,ivf_pq   ANN index types to compare (default ivf_flat)
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { LocalEmbeddingModel } from '@weft/embed-local';
import type { IndexFilter, SkbNode } from '@weft/spec';
import { LanceTextIndex } from '../lance-text-index.ts';
import { LanceVectorIndex } from '../lance-vector-index.ts';
import { nodeDocument, writeLanceNodes } from '../lance-node-table.ts';
import type { VectorIndexChoice } from '../vector-index-choice.ts';
import { meanMetrics, percentile, queryMetrics } from './metrics.ts';
import { readNodes, readQueries, readSchema, wordnetDirectory } from './wordnet.ts';

const bundle = wordnetDirectory();
// Its figures are measured on the team's judged WordNet queries, which a fresh clone does not have.
if (!existsSync(path.join(bundle, 'queries'))) {
  console.log(
    `skipped: needs the judged WordNet queries in ${bundle} (set WEFT_SHARED to the folder holding datasets/)`,
  );
  process.exit(0);
}
const rss = () => `${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`;
const seconds = (t0: number) => `${((performance.now() - t0) / 1000).toFixed(1)} s`;
const fmt = (m: ReturnType<typeof meanMetrics>) =>
  `Hit@1 ${m.hit1.toFixed(1)}  Hit@5 ${m.hit5.toFixed(1)}  R@20 ${m.recall20.toFixed(1)}  MRR ${m.mrr.toFixed(1)}`;

const schema = readSchema(bundle);
const nodes: SkbNode[] = [];
for await (const node of readNodes(bundle)) nodes.push(node);
const typeOf = new Map(nodes.map((n) => [n.id, n.type]));
console.log(`WordNet: ${nodes.length} nodes, ${os.cpus().length} CPUs, node ${process.version}`);

let t0 = performance.now();
const model = await LocalEmbeddingModel.fit(() => nodes.map((n) => nodeDocument(n)));
console.log(`fit local embedder (${model.modelId}): ${seconds(t0)}, peak RSS ${rss()}`);
t0 = performance.now();
const vectors = nodes.map((n) => model.embedOne(nodeDocument(n)));
console.log(`embed ${nodes.length} nodes: ${seconds(t0)}`);

const directory = await mkdtemp(path.join(os.tmpdir(), 'weft-lance-bench-'));
const kinds = (process.env.BENCH_INDEXES ?? 'ivf_flat').split(',') as VectorIndexChoice[];
try {
  t0 = performance.now();
  const base = await writeLanceNodes({
    directory: path.join(directory, 'flat'),
    nodes: nodes.map((n, i) => ({ ...n, vectors: { vector: vectors[i]! } })),
    vectorColumns: [{ name: 'vector', dimensions: model.dimensions }],
    vectorIndex: 'flat',
  });
  console.log(`write table + BM25 index (${base.rows} rows, no ANN): ${seconds(t0)}, peak RSS ${rss()}`);
  const text = await LanceTextIndex.open(path.join(directory, 'flat'));
  const flat = await LanceVectorIndex.open(path.join(directory, 'flat'), {
    embedderId: `local:${model.modelId}`,
  });

  // Quality: rank only target types; WordNet's targetTypes are all types, so the filter is dropped then.
  const targets = schema.targetTypes;
  const filter: IndexFilter | undefined =
    targets && targets.length < schema.nodeTypes.length ? { nodeTypes: targets } : undefined;
  const limit = 100;
  console.log(`\nquality (ranked list length ${limit}; metrics in %):`);
  for (const [set, split] of [
    ['hybrid', 'val'],
    ['definitions', 'test'],
  ] as const) {
    const queries = (await readQueries(bundle, set)).filter((q) => q.split === split);
    const texts = queries.map((q) => q.query);
    const bm25 = await text.doSearch({ queries: texts, limit, ...(filter ? { filter } : {}) });
    const dense = await flat.doSearch({
      vectors: texts.map((q) => Array.from(model.embedOne(q))),
      limit,
      ...(filter ? { filter } : {}),
    });
    const score = (lists: { id: string }[][]) =>
      meanMetrics(
        lists.map((hits, i) =>
          queryMetrics(
            hits.map((h) => h.id).filter((id) => !targets || targets.includes(typeOf.get(id)!)),
            queries[i]!.answers,
          ),
        ),
      );
    console.log(`  ${set} ${split} (${queries.length} q)  BM25:   ${fmt(score(bm25))}`);
    console.log(`  ${set} ${split} (${queries.length} q)  vector: ${fmt(score(dense))}`);
  }

  const latencyQueries = (await readQueries(bundle, 'wn18rr')).slice(0, 200).map((q) => q.query);
  const latencyVectors = latencyQueries.map((q) => Array.from(model.embedOne(q)));
  const time = async (label: string, one: (i: number) => Promise<unknown>) => {
    const single: number[] = [];
    for (let i = 0; i < latencyQueries.length; i++) {
      const s = performance.now();
      await one(i);
      single.push(performance.now() - s);
    }
    const concurrent: number[] = [];
    for (let i = 0; i < latencyQueries.length; i += 8) {
      await Promise.all(
        Array.from({ length: Math.min(8, latencyQueries.length - i) }, async (_, j) => {
          const s = performance.now();
          await one(i + j);
          concurrent.push(performance.now() - s);
        }),
      );
    }
    console.log(
      `  ${label}: single p50 ${percentile(single, 50).toFixed(1)} ms p95 ${percentile(single, 95).toFixed(1)} ms | 8 concurrent p50 ${percentile(concurrent, 50).toFixed(1)} ms p95 ${percentile(concurrent, 95).toFixed(1)} ms`,
    );
  };
  console.log(`\nlatency (${latencyQueries.length} wn18rr queries, limit 10):`);
  await time('BM25', (i) => text.doSearch({ queries: [latencyQueries[i]!], limit: 10 }));
  await time('vector flat (exact)', (i) => flat.doSearch({ vectors: [latencyVectors[i]!], limit: 10 }));
  const exact = await flat.doSearch({ vectors: latencyVectors, limit: 10 });

  for (const kind of kinds) {
    const dir = path.join(directory, kind);
    t0 = performance.now();
    const built = await writeLanceNodes({
      directory: dir,
      nodes: nodes.map((n, i) => ({ ...n, vectors: { vector: vectors[i]! } })),
      vectorColumns: [{ name: 'vector', dimensions: model.dimensions }],
      vectorIndex: kind,
    });
    console.log(
      `\n${built.vectorIndexes.vector}: write + BM25 + ANN build ${seconds(t0)}, peak RSS ${rss()}`,
    );
    for (const nprobes of kind === 'ivf_hnsw_sq' ? [1] : [24, 96, 160]) {
      for (const ef of kind === 'ivf_hnsw_sq' ? [50, 100, 300] : [100]) {
        const ann = await LanceVectorIndex.open(dir, { embedderId: `local:${model.modelId}`, nprobes, ef });
        const got = await ann.doSearch({ vectors: latencyVectors, limit: 10 });
        const recall =
          got.reduce(
            (s, hits, i) =>
              s +
              hits.filter((h) => exact[i]!.some((e) => e.id === h.id)).length / Math.max(1, exact[i]!.length),
            0,
          ) / got.length;
        await time(`${kind} nprobes ${nprobes} ef ${ef} recall@10 ${recall.toFixed(3)}`, (i) =>
          ann.doSearch({ vectors: [latencyVectors[i]!], limit: 10 }),
        );
        await ann.close();
      }
    }
  }
  await text.close();
  await flat.close();
} finally {
  await rm(directory, { recursive: true, force: true });
}
