// Development measurement of grounding on query sets with gold anchors (meta.anchors):
//   ./dev node --conditions=@weft/source devkit/results/src/grounding-dev.ts <bundle> <store> <set> <split> [rows.jsonl]
// Prints linking recall (every gold anchor among a mention's top 3), mentions per question and
// precision; writes one feature row per (mention, candidate) with its label when asked.
import { appendFileSync } from 'node:fs';
import { readQuerySet } from '@weft/eval';
import { openStore } from '@weft/store';
import { groundQuestion } from '@weft/grounding';

const [bundle, storeDir, set, split, rowsFile] = process.argv.slice(2);
const store = await openStore(storeDir!);
// Sets without gold anchors (text-only questions) report mentions per question only.
const queries = await readQuerySet(bundle!, set!, { split: split as 'train' });
let linked = 0,
  linkedAny = 0,
  mentions = 0,
  precise = 0,
  top1 = 0,
  ms = 0;
for (const q of queries) {
  // Gold anchors that are not nodes (WordNet's lexicographer files as types) cannot be linked.
  const listed = (q.meta?.anchors as string[] | undefined) ?? [];
  const found = await store.context.graph.doGetNodes(listed);
  const gold = new Set(listed.filter((_, i) => found[i]));
  const t = performance.now();
  const g = await groundQuestion(q.query, store.context, { minProbability: Number(process.env.MINP ?? 0.2) });
  ms += performance.now() - t;
  const top3 = new Set(g.mentions.flatMap((m) => m.candidates.slice(0, 3).map((c) => c.id)));
  if (gold.size > 0 && [...gold].every((a) => top3.has(a))) linked++;
  if ([...gold].some((a) => top3.has(a))) linkedAny++;
  mentions += g.mentions.length;
  precise += g.mentions.filter((m) => gold.has(m.candidates[0]!.id)).length;
  if (g.mentions[0] && gold.has(g.mentions[0].candidates[0]!.id)) top1++;
  if (process.env.VERBOSE) {
    console.log(`${q.id} ${q.query}\n  gold ${[...gold].join(' ')}`);
    for (const m of g.mentions)
      console.log(
        `  ${m.text} ${m.probability.toFixed(2)} ${m.candidates
          .slice(0, 3)
          .map((c) => `${c.name}[${c.id}]${gold.has(c.id) ? '*' : ''}:${c.probability.toFixed(2)}`)
          .join(' ')}`,
      );
  }
  if (rowsFile) {
    const all = await groundQuestion(q.query, store.context, { minProbability: 0, candidatesPerMention: 50 });
    for (const m of all.mentions)
      for (const c of m.candidates)
        appendFileSync(
          rowsFile,
          `${JSON.stringify({ q: q.id, set, m: m.text, id: c.id, y: gold.has(c.id) ? 1 : 0, f: c.features })}\n`,
        );
  }
}
const n = queries.length;
console.log(
  `${set}/${split} n=${n} linked(all gold in top3)=${((100 * linked) / n).toFixed(1)} any=${((100 * linkedAny) / n).toFixed(1)} top1=${((100 * top1) / n).toFixed(1)} mentions/q=${(mentions / n).toFixed(2)} precision=${((100 * precise) / Math.max(1, mentions)).toFixed(1)} ms/q=${(ms / n).toFixed(1)}`,
);
await store.close();
