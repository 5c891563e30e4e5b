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
import { candidatesOf, EdgeIndex, type RelationalPart } from '@internal/judged-queries';
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
const index = new EdgeIndex(graph.nodes, graph.edges);
const nodes = new Map(graph.nodes.map((node) => [node.id, node]));

let part: RelationalPart;
let judged = new Map<string, string>();
if (argument.trim().startsWith('{')) part = JSON.parse(argument) as RelationalPart;
else {
  const set = argument.startsWith('deb-des-') ? 'described' : 'hybrid';
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
  console.log(`${id}${verdict}\n    ${node.text.replace(/\n/g, '\n    ')}\n`);
}
