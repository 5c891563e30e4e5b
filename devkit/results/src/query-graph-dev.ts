// Development measurement of the query-graph search on query sets with gold plans:
//   ./dev node --conditions=@weft/source devkit/results/src/query-graph-dev.ts <bundle> <store> <set> <split>
// Prints how often the gold (anchor node, first hop) is the first reading / among the top 3, how often
// a gold answer is among the first reading's endpoints, and Hit@1 of ranking the first reading's
// endpoints by text (the plan executed as a filter).
import { readQuerySet } from '@weft/eval';
import { relationLabel } from '@weft/kit';
import { goldAnnotations } from '@weft/oracle';
import { LexicalPlanner } from '@weft/planner-lexical';
import { searchQueryGraphs } from '@weft/query-graph';
import { openStore } from '@weft/store';

const [bundle, storeDir, set, split] = process.argv.slice(2);
const store = await openStore(storeDir!);
const queries = await readQuerySet(bundle!, set!, { split: split as 'train' });
const gold = new Map(goldAnnotations(queries, { schema: store.context.schema }).map((g) => [g.queryId, g]));
const planner = new LexicalPlanner({ minDescribedProbability: 0.2, relationsFromNames: true });
let n = 0,
  top1 = 0,
  top3 = 0,
  reach = 0,
  hit = 0,
  textOnly = 0,
  ms = 0;
for (const q of queries) {
  const g = gold.get(q.id);
  const t = performance.now();
  const plan = await planner.doPlan({ query: q.query, feedback: [], context: store.context });
  const reading = await searchQueryGraphs(q.query, plan.anchors, store.context);
  ms += performance.now() - t;
  n++;
  textOnly += reading.textOnly;
  const isGold = (r: (typeof reading.graphs)[number]) =>
    !!g &&
    g.paths.some(
      (p) =>
        p.anchor === r.node &&
        p.hops[0]?.edgeType === r.edgeType &&
        (p.hops[0].direction === r.direction || p.hops[0].direction === 'both'),
    );
  const rank = reading.graphs.findIndex(isGold);
  if (rank === 0) top1++;
  if (rank >= 0 && rank < 3) top3++;
  const first = reading.graphs[0];
  const answers = new Set(q.answers);
  if (first?.endpoints.some((e) => answers.has(e.id))) reach++;
  if (first?.endpoints[0] && answers.has(first.endpoints[0].id)) hit++;
  if (process.env.VERBOSE) {
    console.log(
      `${q.id} ${q.query}\n  gold ${g ? g.paths.map((p) => `${p.anchor} ${p.hops.map((h) => `${h.edgeType}|${h.direction}`).join('/')}`).join(' & ') : '-'}  textOnly ${reading.textOnly.toFixed(2)}`,
    );
    for (const r of reading.graphs.slice(0, 3))
      console.log(
        `  ${isGold(r) ? '*' : ' '} ${r.node} ${relationLabel(r.edgeType, r.direction, 'key')} → ${r.answerType} reach ${r.reach} conf ${r.confidence.toFixed(2)} link ${r.evidence.link.toFixed(2)} fit ${r.evidence.fit.toFixed(2)} words ${r.evidence.relationWords} first ${r.endpoints[0]?.id}${answers.has(r.endpoints[0]?.id ?? '') ? ' ✓' : ''}`,
      );
  }
}
const pct = (x: number) => ((100 * x) / n).toFixed(1);
console.log(
  `${set}/${split} n=${n}: gold reading first ${pct(top1)} top3 ${pct(top3)}; first reading reaches an answer ${pct(reach)}; its best endpoint is an answer ${pct(hit)}; mean textOnly ${(textOnly / n).toFixed(2)}; ${(ms / n).toFixed(0)} ms/question`,
);
await store.close();
