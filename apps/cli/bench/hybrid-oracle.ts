/**
 * What limits the hybrid set, measured on its train + val queries (their `meta` is read here, for
 * analysis only — no stack sees it):
 *  - oracle: BM25 restricted to the gold anchors' 1-hop (and 2-hop) neighbourhood — the Hit@1 that
 *    perfect planning would reach with BM25 inside the set, per template family;
 *  - planner: how often a gold anchor starts the plan's first path, or is among its anchors.
 *
 *   ./dev node --conditions=@weft/source apps/cli/bench/hybrid-oracle.ts --db <trained store>
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { readQuerySet } from '@weft/eval';
import { SchemaPlanner } from '@weft/planner-schema';
import { repositoryRoot, sharedDirectory } from '../src/commands/demo.ts';
import { openStore } from '../src/store/open-store.ts';

const { values } = parseArgs({ options: { db: { type: 'string' } } });
if (!values.db) {
  console.error('usage: hybrid-oracle.ts --db <store>');
  process.exit(2);
}
const bundle = path.join(sharedDirectory(repositoryRoot()), 'datasets', 'wordnet');
const queries = (await readQuerySet(bundle, 'hybrid')).filter((q) => q.split !== 'test');
const store = await openStore(path.resolve(values.db));
try {
  const { graph, text } = store.context;
  const planner = new SchemaPlanner();
  const families: Record<string, { n: number; oneHop: number; twoHop: number }> = {};
  let firstPath = 0;
  let anyAnchor = 0;
  for (const q of queries) {
    const meta = q.meta as { anchors: string[]; hops: string };
    const gold = new Set(q.answers);
    const one = [
      ...new Set((await graph.doNeighbors({ seeds: meta.anchors, direction: 'both' })).map((n) => n.node)),
    ];
    const second = await graph.doNeighbors({
      seeds: one.slice(0, 3000),
      direction: 'both',
      limitPerSeed: 500,
    });
    const two = [...new Set([...one, ...second.map((n) => n.node)])];
    const [inOne, inTwo] = await Promise.all([
      text.doSearch({ queries: [q.query], limit: 1, filter: { ids: one } }),
      text.doSearch({ queries: [q.query], limit: 1, filter: { ids: two } }),
    ]);
    const family = (families[meta.hops] ??= { n: 0, oneHop: 0, twoHop: 0 });
    family.n++;
    if (gold.has(inOne[0]?.[0]?.id ?? '')) family.oneHop++;
    if (gold.has(inTwo[0]?.[0]?.id ?? '')) family.twoHop++;

    const plan = await planner.doPlan({ query: q.query, context: store.context });
    const anchors = new Set(meta.anchors);
    const first = plan.paths[0]?.anchor;
    if (first !== undefined && anchors.has(plan.anchors[first]?.candidates[0]?.id ?? '')) firstPath++;
    if (plan.anchors.some((a) => a.candidates.some((c) => anchors.has(c.id)))) anyAnchor++;
  }
  console.log(`hybrid train+val, n = ${queries.length}`);
  for (const [name, f] of Object.entries(families))
    console.log(
      `  ${name.padEnd(22)} n=${f.n}  BM25 top-1 in 1-hop set ${f.oneHop}  in 2-hop set ${f.twoHop}`,
    );
  console.log(
    `  planner: gold anchor starts the first path ${firstPath}/${queries.length}, among the anchors ${anyAnchor}/${queries.length}`,
  );
} finally {
  await store.close();
}
