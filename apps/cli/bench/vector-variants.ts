import path from 'node:path';
import { parseArgs } from 'node:util';
import { openStore } from '@weft/store';
import { nameQuery, sampledBundleNodes } from './sampled-nodes.ts';
import type { VectorIndexChoice } from '@weft/index-lancedb';
import { lancedb } from '../../../packages/index-lancedb/src/lancedb.ts';
import { buildVectorIndex } from '../../../packages/index-lancedb/src/vector-index-choice.ts';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    type: { type: 'string', default: 'paper' },
    n: { type: 'string', default: '30' },
    k: { type: 'string', default: '300' },
    only: { type: 'string' },
    lance: { type: 'string' },
    rebuild: { type: 'string' },
  },
});
if (!values.db) throw new Error('give --db <store>');
const n = Number(values.n);
const k = Number(values.k);
const db = path.resolve(values.db);
const store = await openStore(db);
const manifest = store.manifest as unknown as {
  bundle: { path: string };
  indexes: { vector?: { path: string } };
};
if (!manifest.indexes.vector || !store.context.embeddingModel)
  throw new Error('the store has no vector index');
const queries = (await sampledBundleNodes(manifest.bundle.path, n)).map((node) => nameQuery(node.name));
const { embeddings } = await store.context.embeddingModel.doEmbed({ values: queries });
const vectors = embeddings.map((e) => Float32Array.from(e));
const connection = await lancedb.connect(values.lance ?? path.resolve(db, manifest.indexes.vector.path));
const table = await connection.openTable('nodes');
if (values.rebuild) {
  if (!values.lance) throw new Error('--rebuild only writes a copy given with --lance');
  const at = performance.now();
  const built = await buildVectorIndex(
    table,
    'vector',
    await table.countRows(),
    values.rebuild as VectorIndexChoice,
  );
  console.log(`${built} built in ${((performance.now() - at) / 1000).toFixed(1)} s`);
}
const rows = await table.countRows();
const where = `type IN ('${values.type!.replaceAll("'", "''")}')`;
const typed = await table.countRows(where);
const probes = Math.ceil((2 * 96) / (typed / rows));
const index = (await table.listIndices()).find((i) => i.columns.includes('vector'));
console.log(
  `${rows} rows, ${values.type} ${typed}, vector index ${index?.indexType ?? 'none'}, filtered search probes ${probes}`,
);

type Row = { id: string; _distance: number };
const search = (v: Float32Array, columns = ['id', 'type', '_distance']) =>
  table.vectorSearch(v).column('vector').distanceType('cosine').select(columns);
const stacks = (v: Float32Array, maximum: number, columns?: string[]) =>
  search(v, columns)
    .limit(k)
    .maximumNprobes(1 << 20)
    .minimumNprobes(Math.min(96, maximum))
    .maximumNprobes(maximum);
const variants: Record<string, (v: Float32Array) => Promise<Row[]>> = {
  "the stack's (id, type)": async (v) => (await stacks(v, probes).where(where).toArray()) as Row[],
  'id only': async (v) => (await stacks(v, probes, ['id', '_distance']).where(where).toArray()) as Row[],
  'probes 200': async (v) => (await stacks(v, 200).where(where).toArray()) as Row[],
  'probes 96': async (v) => (await stacks(v, 96).where(where).toArray()) as Row[],
  'probes 1': async (v) => (await stacks(v, 1).where(where).toArray()) as Row[],
  'unfiltered, same probes': async (v) => (await stacks(v, probes).toArray()) as Row[],
  'postfilter k × 2, same probes': async (v) =>
    (
      (await search(v)
        .limit(2 * k)
        .nprobes(probes)
        .where(where)
        .postfilter()
        .toArray()) as Row[]
    ).slice(0, k),
  'postfilter k × 3, 192 probes': async (v) =>
    (
      (await search(v)
        .limit(3 * k)
        .nprobes(192)
        .where(where)
        .postfilter()
        .toArray()) as Row[]
    ).slice(0, k),
  'refineFactor 2': async (v) => (await stacks(v, probes).where(where).refineFactor(2).toArray()) as Row[],
  'refineFactor 5': async (v) => (await stacks(v, probes).where(where).refineFactor(5).toArray()) as Row[],
};
const exact: string[][] = [];
for (const v of vectors)
  exact.push(
    ((await search(v, ['id', '_distance']).limit(k).where(where).bypassVectorIndex().toArray()) as Row[]).map(
      (r) => r.id,
    ),
  );
const names = values.only ? values.only.split(';') : Object.keys(variants);
for (let round = 1; round <= 2; round++)
  for (const name of names) {
    const run = variants[name];
    if (!run) throw new Error(`no variant ${name}: ${Object.keys(variants).join(', ')}`);
    const times: number[] = [];
    let r100 = 0;
    let r300 = 0;
    const cpu = process.cpuUsage();
    for (const [i, v] of vectors.entries()) {
      const at = performance.now();
      const ids = (await run(v)).map((r) => r.id);
      times.push(performance.now() - at);
      const truth = exact[i]!;
      const recall = (at: number) => {
        const want = truth.slice(0, at);
        const got = new Set(ids.slice(0, at));
        return want.length ? want.filter((id) => got.has(id)).length / want.length : 1;
      };
      r100 += recall(100);
      r300 += recall(300);
    }
    const used = process.cpuUsage(cpu);
    times.sort((a, b) => a - b);
    console.log(
      `round ${round} ${name.padEnd(30)} p50 ${times[times.length >> 1]!.toFixed(1)} ms  cpu ${((used.user + used.system) / 1000 / n).toFixed(1)} ms/search  recall@100 ${(r100 / n).toFixed(3)}  @300 ${(r300 / n).toFixed(3)}`,
    );
  }
table.close();
connection.close();
await store.close();
