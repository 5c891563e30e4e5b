import { markdownTable, splitCounts } from '@weft-dev/judged-queries';
import type { SkbQuery } from '@weft/spec';
import { debianSchema } from './debian-schema.ts';
import { edgeSignature, type GraphStatistics } from './graph-statistics.ts';

export interface SourceDocumentInput {
  readonly packagesFile: string;
  readonly translationFile?: string;
  /** `Date:` of bookworm's InRelease. */
  readonly releaseDate?: string;
  /** Modification time of the Translation-en file (apt writes it when it fetches it). */
  readonly translationDate?: string;
  readonly longDescriptions: number;
  readonly statistics: GraphStatistics;
  readonly queries: Readonly<Record<string, readonly SkbQuery[]>>;
}

/** SOURCE.md of the bundle: provenance, licence, schema with counts, and how the queries were made. */
export function sourceDocument(input: SourceDocumentInput): string {
  const { statistics, queries } = input;
  const packages = statistics.nodesByType.package ?? 0;
  return `# Debian bookworm main (amd64) as an SKB bundle

The Debian package archive as a semi-structured knowledge base: every binary package of Debian 12
"bookworm", component main, architectures amd64 and all, with its description as its document, and
the sources, sections, maintainers, debtags and virtual packages it is related to. Built by
\`buildDebianBundle\` of \`devkit/kb-debian\` in the Weft repository from apt's local lists; the
queries are committed there in \`queries/\`. Layout: docs/skb-format.md (version 1).

## Provenance and licence

* **Packages**: \`${input.packagesFile}\` (bookworm InRelease dated ${input.releaseDate ?? 'unknown'}).
  Only bookworm itself, not bookworm-updates or bookworm-security.
* **Long descriptions**: ${
    input.translationFile
      ? `\`${input.translationFile}\` (fetched ${input.translationDate ?? 'unknown'}), joined by Package and Description-md5: ${input.longDescriptions} of ${packages} packages have one.`
      : '**missing** — this bundle has the short descriptions only (get them with `sudo apt-get update -o Acquire::Languages=en` and rebuild).'
  }
* **Licence**: Debian archive metadata (package descriptions written by Debian maintainers and upstream
  authors), redistributed by Debian mirrors without restriction as part of the archive; each package's
  own licence is in its copyright file and is not part of this bundle. Debian is a registered trademark
  of Software in the Public Interest, Inc.
* **Queries** and their judgments were written for this bundle by hand (by the LLM assistant that
  built it, as the annotator).

## Nodes

${markdownTable(
  ['type', 'description', 'nodes'],
  debianSchema.nodeTypes.map((t) => [t.name, t.description ?? '', statistics.nodesByType[t.name] ?? 0]),
)}

All ${statistics.nodes} nodes; target type: package. Ids are \`<type>:<name>\`.
A package's text is its synopsis, a blank line, and its long description (paragraphs kept);
\`props\`: version, architecture, priority, section, homepage. Source, section, maintainer, tag and
virtual nodes have a one-line composed text (what builds from a source, who provides a virtual
package, how many packages a section, maintainer or tag has). Maintainers are merged by name (the
e-mail address is dropped).

## Edges

${markdownTable(
  ['edge type', 'from', 'to', 'meaning', 'edges'],
  debianSchema.edgeTypes.map((t) => [
    t.name,
    t.from,
    t.to,
    t.description ?? '',
    statistics.edgesBySignature[edgeSignature(t.name, t.from, t.to)] ?? 0,
  ]),
)}

All ${statistics.edges} edges. Relations: \`Depends\` and \`Pre-Depends\` become \`depends\`; for
alternatives (\`a | b\`) there is an edge to each alternative the archive has; version constraints,
architecture qualifiers (\`:any\`) are dropped; a relation to a name that no package of the list has
and none provides is dropped; a name that is both a package and provided goes to the package.

Most depended-on:

${markdownTable(
  ['node', 'depended on by'],
  statistics.hubs.map((h) => [h.id, h.degree]),
)}

## Query sets

${markdownTable(
  ['set', 'train', 'val', 'test', 'all'],
  Object.entries(queries).map(([set, list]) => [set, ...splitCounts(list), list.length]),
)}

* **described** — hybrid questions whose anchor (a package, source, maintainer, section, tag or
  virtual package) is described, never named, plus a textual requirement on the answer's
  description. Every candidate the relational part admits was read and judged; gold is every candidate
  that meets the requirement (\`queries/described.annotations.jsonl\` has each judgment and its reason).
  \`meta.paths\` are read from the anchor towards the answer (\`direction\` \`out\` from an edge's
  source to its destination, \`in\` back).
* **hybrid** — the same kind of questions with the anchor **named** ("Which genome analysis packages
  depend on libtre5?"), judged the same way (\`queries/hybrid.annotations.jsonl\`).
* **text** — text-only questions: what the software does, in other words than its description; gold
  is every package whose description fits, found by searching all descriptions.

Splits are random (seeded), about 50 % train, 25 % val, 25 % test per set.
`;
}
