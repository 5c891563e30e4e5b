// Development measurement: how often the question's gold anchor (meta.anchors) is the first, in the
// top 3 or top 10 of its described-node candidates — the question's 50 best own-document and
// relation-aware matches over every type — ranked by share alone, by share × the summed BM25 shares
// of its neighbours among the question's 100 best target-type matches ("sum"), and by the
// traverser's coherence, share × (1 + log(1 + sum)).
//   ./dev node --conditions=@weft/source devkit/results/src/described-anchor-dev.ts <bundle> <store> <set> <split>
import { readQuerySet } from '@weft/eval';
import { searchText } from '@weft/kit';
import { openStore } from '@weft/store';

const [bundle, storeDir, set, split] = process.argv.slice(2);
const store = await openStore(storeDir!);
const { text, graph, schema } = store.context;
const queries = await readQuerySet(bundle!, set!, { split: split as 'train' });
const rankings = {
  share: (share: number) => share,
  sum: (share: number, sum: number) => share * sum,
  coherence: (share: number, sum: number) => share * (1 + Math.log1p(sum)),
};
const ks = [1, 3, 10];
const hits = Object.fromEntries(Object.keys(rankings).map((r) => [r, ks.map(() => 0)]));
let n = 0;
for (const q of queries) {
  const gold = new Set((q.meta?.anchors as string[] | undefined) ?? []);
  if (gold.size === 0) continue;
  n++;
  const share = new Map<string, number>();
  for (const field of [undefined, 'combined']) {
    const [list = []] = await searchText(text, [q.query], { limit: 50, ...(field ? { field } : {}) });
    const top = list[0]?.score ?? 0;
    for (const hit of list) if (top > 0) share.set(hit.id, Math.max(share.get(hit.id) ?? 0, hit.score / top));
  }
  const [pool = []] = await searchText(text, [q.query], {
    limit: 100,
    ...(schema.targetTypes ? { filter: { nodeTypes: schema.targetTypes } } : {}),
  });
  const poolShare = new Map(pool.map((hit) => [hit.id, hit.score / (pool[0]?.score || 1)]));
  const ids = [...share.keys()];
  const sum = new Map<string, number>();
  const seen = new Set<string>();
  for (const e of await graph.doNeighbors({ seeds: ids, direction: 'both', limitPerSeed: 100_000 })) {
    const key = `${e.seed}|${e.node}`;
    const s = poolShare.get(e.node);
    if (seen.has(key) || s === undefined) continue;
    seen.add(key);
    sum.set(e.seed, (sum.get(e.seed) ?? 0) + s);
  }
  for (const [name, score] of Object.entries(rankings)) {
    const order = [...ids].sort(
      (a, b) => score(share.get(b)!, sum.get(b) ?? 0) - score(share.get(a)!, sum.get(a) ?? 0),
    );
    const rank = Math.min(
      ...[...gold].map((g) => (order.includes(g) ? order.indexOf(g) : Number.POSITIVE_INFINITY)),
    );
    ks.forEach((k, i) => {
      if (rank < k) hits[name]![i]!++;
    });
  }
}
for (const [name, counts] of Object.entries(hits))
  console.log(
    `${set}/${split} ${name}: ${ks.map((k, i) => `@${k} ${((100 * counts[i]!) / n).toFixed(1)}`).join(' ')}`,
  );
console.log(`questions with gold anchors: ${n}`);
await store.close();
