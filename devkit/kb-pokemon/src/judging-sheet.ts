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
import { judgingSheet } from '@weft-dev/judged-queries';

const argument = process.argv[2];
if (!argument) {
  console.error("usage: node src/judging-sheet.ts '<relational part JSON>' | <hybrid or described query id>");
  process.exit(2);
}
const graph = await extractPokemonGraph(Dex.forGen(9));
const sheet = await judgingSheet({
  argument,
  nodes: graph.nodes,
  edges: graph.edges,
  readers: { readQuerySet, readAnnotations },
  describedPrefix: 'pk-des-',
  show: (node) => `${node.id} | ${node.name}\n    ${node.text}`,
});
console.log(sheet.join('\n'));
