import path from 'node:path';
import { createRetriever } from '@weft/core';
import fs from 'node:fs';
import { SchemaPlanner, type SchemaPlannerModel, trainSchemaPlanner } from '@weft/planner-schema';
import { type RerankExample, TrajectoryReranker, trainTrajectoryReranker } from '@weft/reranker-trajectory';
import type { SkbQuery } from '@weft/spec';
import { MixedTraverser } from '@weft/traverser-mor';
import { devContext, loadBundle } from './dev-stores.ts';

const shared = process.env.WEFT_SHARED ?? path.resolve(import.meta.dirname, '../../../../shared');
const t0 = performance.now();
const bundle = loadBundle(path.join(shared, 'datasets/wordnet'));
const context = devContext(bundle);
console.error(`loaded in ${((performance.now() - t0) / 1000).toFixed(1)}s`);
const sets = ['hybrid', 'wn18rr', 'definitions'];
const queries = Object.fromEntries(sets.map((s) => [s, bundle.queries(s)]));
const train = [...queries.hybrid!, ...queries.wn18rr!].filter((q) => q.split === 'train');
const t1 = performance.now();
const cache = '/tmp/wn-planner-model.json';
const model: SchemaPlannerModel =
  process.env.RETRAIN || !fs.existsSync(cache)
    ? await trainSchemaPlanner(context, train, [], {
        onProgress: (d, n) => d % 500 === 0 && console.error(`${d}/${n}`),
      })
    : JSON.parse(fs.readFileSync(cache, 'utf8'));
fs.writeFileSync(cache, JSON.stringify(model));
console.error(
  `trained in ${((performance.now() - t1) / 1000).toFixed(1)}s; metapaths ${model.metapaths.length}`,
);
console.error(
  model.hypothesis.features.map((f, i) => `${f}=${model.hypothesis.weights[i]!.toFixed(2)}`).join(' '),
);

function metrics(ranking: string[], gold: Set<string>) {
  const first = ranking.findIndex((id) => gold.has(id));
  return {
    hit1: first === 0 ? 1 : 0,
    hit5: first >= 0 && first < 5 ? 1 : 0,
    r20: ranking.slice(0, 20).filter((id) => gold.has(id)).length / gold.size,
    mrr: first >= 0 ? 1 / (first + 1) : 0,
  };
}

const limitWn = Number(process.env.WN_VAL ?? 200);
const planner = new SchemaPlanner({ model });
async function examples(qs: SkbQuery[]): Promise<(RerankExample & { q: SkbQuery })[]> {
  const retriever = createRetriever({ name: 'mor', context, planner, traversers: [new MixedTraverser()] });
  const out = [];
  for (const q of qs)
    out.push({
      q,
      answers: q.answers,
      candidates: (await retriever.doRetrieve({ query: q.query, limit: 100 })).ranking,
    });
  return out;
}
function report(name: string, rankings: string[][], qs: SkbQuery[]) {
  const sum = { hit1: 0, hit5: 0, r20: 0, mrr: 0 };
  rankings.forEach((r, i) => {
    const m = metrics(r, new Set(qs[i]!.answers));
    for (const k of Object.keys(sum) as (keyof typeof sum)[]) sum[k] += m[k];
  });
  const pct = (v: number) => ((100 * v) / qs.length).toFixed(1);
  console.log(
    `${name.padEnd(20)} n=${qs.length} H@1 ${pct(sum.hit1)} H@5 ${pct(sum.hit5)} R@20 ${pct(sum.r20)} MRR ${pct(sum.mrr)}`,
  );
}
const t2 = performance.now();
const trainEx = await examples([
  ...queries.hybrid!.filter((q) => q.split === 'train'),
  ...queries.wn18rr!.filter((q) => q.split === 'train').slice(0, 400),
]);
const valSets = {
  hybrid: await examples(queries.hybrid!.filter((q) => q.split === 'val')),
  wn18rr: await examples(queries.wn18rr!.filter((q) => q.split === 'val').slice(0, limitWn)),
};
console.error(`candidates in ${((performance.now() - t2) / 1000).toFixed(1)}s`);
const trained = await trainTrajectoryReranker(undefined, trainEx, [...valSets.hybrid, ...valSets.wn18rr]);
console.error(JSON.stringify(trained.val));
console.error(
  trained.model.linear.features
    .map((f, i) => `${f}=${trained.model.linear.weights[i]!.toFixed(2)}`)
    .join(' '),
);
const reranker = new TrajectoryReranker({ model: trained.model });
const fixed = new TrajectoryReranker();
for (const [set, ex] of Object.entries(valSets)) {
  const qs = ex.map((e) => e.q);
  report(
    `${set} mor`,
    ex.map((e) => e.candidates.map((c) => c.id)),
    qs,
  );
  const rr = [];
  const fx = [];
  for (const e of ex) {
    const plan = { query: e.q.query } as never;
    rr.push(
      (
        await reranker.doRerank({ query: e.q.query, plan, candidates: e.candidates, limit: 100, context })
      ).map((c) => c.id),
    );
    fx.push(
      (await fixed.doRerank({ query: e.q.query, plan, candidates: e.candidates, limit: 100, context })).map(
        (c) => c.id,
      ),
    );
  }
  report(`${set} mor+rerank`, rr, qs);
  report(`${set} mor+fixed`, fx, qs);
}
