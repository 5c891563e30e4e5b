/**
 * Prints the judging sheet of a hybrid or described query: every package that satisfies its
 * relational part, with its description, so the textual requirement can be judged by reading each
 * one. Reads apt's lists (as the builder does).
 *
 *   node --conditions=@weft/source src/judging-sheet.ts deb-des-001     (a committed query: its
 *                                       candidates beside their judgments; deb-hyb-001 likewise)
 *   node --conditions=@weft/source src/judging-sheet.ts \
 *     '{"answerType":"package","constraints":[{"anchor":"package:libssh-4","path":[{"edge":"depends","direction":"out"}]}]}'
 */
import { aptListsHelp, locateAptLists, readAptList } from './apt-lists.ts';
import { extractDebianGraph, translationIndex } from './debian-graph.ts';
import { readAnnotations, readQuerySet } from './query-sets.ts';
import { judgingSheet } from '@weft-dev/judged-queries';
import { parseStanzas } from './stanzas.ts';

const argument = process.argv[2];
if (!argument) {
  console.error("usage: node src/judging-sheet.ts '<relational part JSON>' | <described or hybrid query id>");
  process.exit(2);
}
const files = locateAptLists();
if (!files) throw new Error(aptListsHelp);
const graph = extractDebianGraph(
  parseStanzas(await readAptList(files.packages)),
  files.translation ? translationIndex(parseStanzas(await readAptList(files.translation))) : new Map(),
);
const sheet = await judgingSheet({
  argument,
  nodes: graph.nodes,
  edges: graph.edges,
  readers: { readQuerySet, readAnnotations },
  describedPrefix: 'deb-des-',
});
console.log(sheet.join('\n'));
