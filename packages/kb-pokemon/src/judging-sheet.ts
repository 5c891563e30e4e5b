/**
 * Prints the judging sheet of a hybrid query: every candidate that satisfies its relational part,
 * with its document, so the textual requirement can be judged by reading each one.
 *
 *   node src/judging-sheet.ts '{"answerType":"move","constraints":[{"anchor":"pokemon:charizard","path":[{"edge":"learns","direction":"in"}]}]}'
 *   node src/judging-sheet.ts pk-hyb-001     (a committed hybrid or described query, pk-des-001: its
 *                                            candidates beside their judgments)
 */
import { Dex } from '@pkmn/dex';
import { extractPokemonGraph } from './extract-pokemon-graph.ts';
import { readAnnotations, readQuerySet } from './query-sets.ts';
import { candidatesOf, EdgeIndex, type RelationalPart } from '@internal/judged-queries';

const argument = process.argv[2];
if (!argument) {
  console.error("usage: node src/judging-sheet.ts '<relational part JSON>' | <hybrid or described query id>");
  process.exit(2);
}
const graph = await extractPokemonGraph(Dex.forGen(9));
const index = new EdgeIndex(graph.nodes, graph.edges);
const nodes = new Map(graph.nodes.map((node) => [node.id, node]));

let part: RelationalPart;
let judged = new Map<string, string>();
if (argument.trim().startsWith('{')) part = JSON.parse(argument) as RelationalPart;
else {
  const set = argument.startsWith('pk-des-') ? 'described' : 'hybrid';
  const annotation = (await readAnnotations(set)).find((a) => a.id === argument);
  const query = (await readQuerySet(set)).find((q) => q.id === argument);
  if (!annotation || !query) throw new Error(`no ${set} query "${argument}"`);
  console.log(
    `${query.id} [${query.split}] ${query.query}\nrequirement: ${query.meta?.textual_requirement}\n`,
  );
  part = annotation.relational_part;
  judged = new Map(annotation.candidates.map((c) => [c.id, `${c.gold ? 'GOLD' : 'no'}: ${c.reason}`]));
}
const candidates = candidatesOf(part, index);
console.log(`${candidates.length} candidates\n`);
for (const id of candidates) {
  const node = nodes.get(id)!;
  const verdict = judged.size > 0 ? `  => ${judged.get(id) ?? 'NOT JUDGED'}` : '';
  console.log(`${id} | ${node.name}${verdict}\n    ${node.text}\n`);
}
