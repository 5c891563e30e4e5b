import { markdownTable, splitCounts } from '@weft-dev/judged-queries';
import type { SkbQuery } from '@weft/spec';
import { edgeSignature, type GraphStatistics } from './graph-statistics.ts';
import { pokemonSchema } from './pokemon-schema.ts';

export interface SourceDocumentInput {
  /** Version of @pkmn/dex the data came from. */
  readonly dexVersion: string;
  readonly statistics: GraphStatistics;
  /** Query set name -> its queries. */
  readonly queries: Readonly<Record<string, readonly SkbQuery[]>>;
}

function templateTable(queries: readonly SkbQuery[]): string {
  const byTemplate = new Map<string, SkbQuery[]>();
  for (const query of queries) {
    const template = String(query.meta?.template);
    byTemplate.set(template, [...(byTemplate.get(template) ?? []), query]);
  }
  return markdownTable(
    ['template', 'structure', 'answer type', 'train', 'val', 'test'],
    [...byTemplate].map(([template, group]) => [
      template,
      String(group[0]?.meta?.hops ?? 'text only'),
      group[0]?.answers[0]?.split(':')[0] ?? '',
      ...splitCounts(group),
    ]),
  );
}

/** SOURCE.md of the bundle: provenance, licence, schema with counts, and how the queries were made. */
export function sourceDocument(input: SourceDocumentInput): string {
  const { statistics, queries } = input;
  const hybrid = queries.hybrid ?? [];
  const meanOf = (values: number[]) =>
    (values.reduce((a, b) => a + b, 0) / Math.max(values.length, 1)).toFixed(2);
  const candidates = hybrid.map((q) => Number(q.meta?.candidates));
  const references = (kind: string) => hybrid.filter((q) => q.meta?.anchor_reference === kind).length;
  const described = queries.described ?? [];
  const describedCandidates = described.map((q) => Number(q.meta?.candidates));
  return `# Pokémon as an SKB bundle

A semi-structured knowledge base of Pokémon species and formes, moves, abilities, items, types and egg
groups, built from Pokémon Showdown's data, with three hand-written query sets: STaRK-style hybrid
queries that need both the graph and the text, the same kind of queries whose anchors are only ever
described (never named), and text-only descriptions. Layout and metrics:
\`shared/SKB-FORMAT.md\` (version 1). Built by \`buildPokemonBundle\` of \`tooling/kb-pokemon\` in the Weft
repository; the queries are committed there in \`queries/\`.

## Provenance and licence

* **Data**: \`@pkmn/dex\` ${input.dexVersion} (npm), the data layer of Pokémon Showdown
  (github.com/smogon/pokemon-showdown, packaged by github.com/pkmn/ps), generation 9 data
  (\`Dex.forGen(9)\`), under the MIT licence (as is Pokémon Showdown itself); the descriptions of
  moves, abilities and items are Showdown's own texts, kept as they are.
* **Trademarks**: Pokémon and the names of Pokémon, moves, abilities and items are trademarks of
  Nintendo, Game Freak and The Pokémon Company. They are used here descriptively, to name the data;
  this bundle is not affiliated with or endorsed by them.
* **Queries** (\`queries/hybrid.jsonl\`, \`queries/described.jsonl\`, \`queries/text.jsonl\`) and their judgments were written for this
  bundle and restate Showdown's data.

## What is included

Entries whose Showdown \`isNonstandard\` is empty (in Scarlet/Violet), \`Past\` (in earlier
main-series games: Mega Evolutions, Z-Moves, Max Moves, species not in Scarlet/Violet),
\`Unobtainable\` or \`Gigantamax\` (G-Max Moves). Left out: \`CAP\` and \`Custom\` (fan-made and
Showdown-only entries such as Pokéstar Studios props), \`LGPE\` (the Let's Go partner Pokémon and their
moves) and \`Future\` (entries of games newer than Showdown's generation-9 data, still provisional).
Also left out as duplicates: cosmetic formes (identical data; their names are aliases of the species),
the 17 typed copies of Hidden Power, the \`No Ability\` placeholder and the Stellar type (Terastal only).

## Nodes

${markdownTable(
  ['type', 'description', 'nodes'],
  pokemonSchema.nodeTypes.map((t) => [t.name, t.description ?? '', statistics.nodesByType[t.name] ?? 0]),
)}

All ${statistics.nodes} nodes; target types (possible answers): ${pokemonSchema.targetTypes?.join(', ')}.
Ids are \`<node type>:<Showdown id>\` (\`pokemon:charizardmegax\`, \`move:flareblitz\`, \`egg_group:water1\`).

* **pokemon** — Showdown has no Pokédex entries, so a species' text is its data written out in plain
  sentences: types and Legendary/Mythical/Ultra Beast/Paradox tags, National Pokédex number,
  generation, forme (Mega Evolution, regional form, ... and what triggers it), abilities and hidden
  ability, base stats and their total, weight, gender ratio, egg groups, evolution method, evolutions,
  other formes, Gigantamax, and whether it is in Scarlet/Violet. Height and colour are not in
  \`@pkmn/dex\`. Aliases: the names players use for formes ("Mega Charizard X", "Alolan Raichu",
  "Gigantamax Snorlax") and cosmetic formes. \`props\`: num, gen, forme, hp, atk, def, spa, spd, spe,
  bst, weightkg.
* **move** — "X is a Fire-type physical move introduced in Generation 4, with 120 power, 100% accuracy
  and 15 PP.", then Showdown's description, then its notable traits (never misses, priority, spread
  targets, contact / sound / punch / bite / slicing / wind / pulse / ball / dance / powder, thaws
  the user, Z-Move, Max Move, availability). \`props\`: moveType, category, basePower, accuracy, pp,
  priority, gen.
* **ability**, **item** — generation (and the item's kind: Berry, Poké Ball, Gem, Mega Stone,
  Z-Crystal) and Showdown's description.
* **type** — its matchups, attacking and defending, in two sentences. **egg_group** — one sentence.

## Edges

${markdownTable(
  ['edge type', 'from', 'to', 'meaning', 'edges'],
  pokemonSchema.edgeTypes.map((t) => [
    t.name,
    t.from,
    t.to,
    t.description ?? '',
    statistics.edgesBySignature[edgeSignature(t.name, t.from, t.to)] ?? 0,
  ]),
)}

All ${statistics.edges} edges. \`learns\` holds each species' own learnset, any generation and any method (level-up, TM,
tutor, egg, event), once per move; formes without a learnset of their own in Showdown (Megas, Arceus
types, ...) have none and reach their base species' moves through \`is_forme_of\`, and moves a species
can only have learned as its pre-evolution are not included. Edges to entries left out are dropped.

The largest hubs (incoming edges):

${markdownTable(
  ['node', 'name', 'in-degree'],
  statistics.hubs.map((h) => [h.id, h.name, h.degree]),
)}

## Query sets

${markdownTable(
  ['set', 'train', 'val', 'test', 'all'],
  Object.entries(queries).map(([set, list]) => [set, ...splitCounts(list), list.length]),
)}

**Splits** are fixed by the number that ends the query id, never by difficulty or answers: number n
goes to the (n - 1) mod 10-th place of the cycle train, test, train, val, train, test, train, test,
train, val (5 train, 3 test, 2 val in every ten consecutive queries, which are written grouped by
template). Query ids (\`pk-hyb-NNN\`, \`pk-des-NNN\`, \`pk-txt-NNN\`) carry no hint of the answer.

**Gold anchors and relation paths.** Every hybrid and described query carries \`meta.anchors\` (the
nodes its relational part starts from) and \`meta.paths\`, one per anchor constraint:
\`{ anchor, hops: [{ edgeType, direction }] }\`, followed from the anchor towards the answer
(\`direction\` \`out\` from an edge's source to its destination, \`in\` back); the answers are the
nodes of the answer type that every path reaches and that meet the textual requirement.

### queries/hybrid.jsonl

${hybrid.length} STaRK-style queries written by hand (by the LLM assistant that built the bundle,
in the role of the annotator), each needing the graph and the text: 1-hop (an anchor named in the
question, one relation, a textual requirement on the answer), 2-hop chains (answer -> X -> anchor),
two anchors (the answer is related to both) and combinations; ${references('alias')} name the anchor
by an alias ("Mega Lopunny", "Alolan Ninetales") and ${references('paraphrase')} by a paraphrase ("the
fearsome evolution of Magikarp"). Phrasing varies from full questions to search-box fragments, and the
textual requirement is paraphrased, never copied from the description.

Judging, per query: the relational part is written as data (\`meta.relational_part\` in words;
in \`tooling/kb-pokemon/queries/hybrid.annotations.jsonl\` as steps from the answer to each anchor);
a script computes every node that satisfies it (the candidate set, ${Math.min(...candidates)} to
${Math.max(...candidates)} nodes, mean ${meanOf(candidates)}); every candidate's document is read and
judged against the textual requirement, strictly by what its text says. **Gold = every candidate that
meets the requirement**, not only the one the question was written for; each judgment has a reason in
the annotations file (\`src/judging-sheet.ts <id>\` prints a query's candidates beside them). A node
outside the candidate set that a player would also accept is not gold, as in STaRK. Answers per query:
mean ${meanOf(hybrid.map((q) => q.answers.length))}, at most ${Math.max(...hybrid.map((q) => q.answers.length))}.

${templateTable(hybrid)}

### queries/described.jsonl

${described.length} hybrid queries judged exactly as above (candidate sets of ${Math.min(...describedCandidates)} to
${Math.max(...describedCandidates)} nodes, mean ${meanOf(describedCandidates)}; every candidate read, a reason per judgment in
\`queries/described.annotations.jsonl\`), in which **no anchor is named**: each is described the way a
player who does not remember the name would — a species by its evolution line, Pokédex facts or
forms ("the Pokémon that evolves from Scyther when traded holding a Metal Coat"), a move, ability or
item by its effect ("the ability that whips up a sandstorm the moment it enters battle"), a type by
its matchups ("the type immune to Psychic attacks"), an egg group by its members. No word of an
anchor's name or aliases (of three letters or more, function words aside) appears in its question
(checked against the built graph); each description is unique in the graph, and
\`meta.anchor_descriptions\` gives it per anchor. It measures linking by description.

${templateTable(described)}

### queries/text.jsonl

${(queries.text ?? []).length} text-only queries: a node described in a player's own words, as
someone would search for a move, ability, item or Pokémon they half remember. Gold = every node whose
text fits the description: for each query all documents were searched for the effect and the matches
read, so near-duplicates with the same effect (Trick and Switcheroo, Huge Power and Pure Power, Super
Fang, Nature's Madness and Ruination) are all gold; the rejected near misses are named in
\`meta.near_duplicates\`.

${templateTable(queries.text ?? [])}
`;
}
