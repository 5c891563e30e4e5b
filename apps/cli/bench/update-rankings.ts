/**
 * How far apart two stores with the same content rank (issue 48): typically one whose text table
 * merged each update's rows into its full-text indexes and one that left them outside
 * (`textMergeRows`), both updated by `update-small.ts` from copies of one store. Per stack (`bm25`,
 * `bm25-rel`, `default`), over the first `--queries` queries (names and the first words of texts of
 * nodes spread over the store, and three on the updates' own words), top 20 each: how many rankings
 * are equal as `comparableRanking` puts them (scores to 1e-5), how many have the same top 10 in the
 * same order, the mean overlap of the top 10s, and the largest relative difference of one node's
 * score.
 *
 *   ./dev node --conditions=@weft/source apps/cli/bench/update-rankings.ts <store A> <store B> [--queries 43]
 */
import { parseArgs } from 'node:util';
import { createStack } from '@weft/stacks';
import { openStore } from '@weft/store';
import { comparableRanking } from '../src/testing/change-set-fixture.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { queries: { type: 'string', default: '43' } },
});
if (positionals.length !== 2) {
  console.error('usage: update-rankings.ts <store A> <store B> [--queries 43]');
  process.exit(2);
}
const [a, b] = [await openStore(positionals[0]!), await openStore(positionals[1]!)];
try {
  const sample = await a.graph.doCypher('MATCH (n:Node) RETURN n.name, n.text LIMIT 100000', {
    maxRows: 100_000,
  });
  const queries = ['glimmerstone lattices', 'new results on glimmerstone', 'glimmerstone note'];
  for (let i = 0; queries.length < Number(values.queries); i++) {
    const [name, text] = sample.rows[(i * 2473) % sample.rows.length]!;
    queries.push(i % 2 ? String(name) : String(text).split(' ').slice(0, 6).join(' '));
  }
  for (const stack of ['bm25', 'bm25-rel', 'default']) {
    const [first, second] = [await createStack(stack, a), await createStack(stack, b)];
    let equal = 0;
    let sameTop10 = 0;
    let overlap = 0;
    let largest = 0;
    for (const query of queries) {
      const ranked = (await first.doRetrieve({ query, limit: 20 })).ranking;
      const other = (await second.doRetrieve({ query, limit: 20 })).ranking;
      if (JSON.stringify(comparableRanking(ranked, 20)) === JSON.stringify(comparableRanking(other, 20)))
        equal++;
      const top = (ranking: typeof ranked) => ranking.slice(0, 10).map((c) => c.id);
      if (top(ranked).join() === top(other).join()) sameTop10++;
      const otherTop = new Set(top(other));
      overlap += top(ranked).filter((id) => otherTop.has(id)).length / 10;
      const scores = new Map(other.map((c) => [c.id, c.score]));
      for (const c of ranked) {
        const score = scores.get(c.id);
        if (score) largest = Math.max(largest, Math.abs(c.score - score) / Math.abs(score));
      }
    }
    console.log(
      `update-rankings ${stack}: ${queries.length} queries; equal rankings ${equal}; same top 10 in order ${sameTop10}; top-10 overlap ${(overlap / queries.length).toFixed(4)}; largest score difference ${(100 * largest).toFixed(3)} %`,
    );
  }
} finally {
  await a.close();
  await b.close();
}
