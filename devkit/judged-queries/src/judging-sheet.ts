import type { SkbEdge, SkbNode } from '@weft/spec';
import type { QuerySetReaders } from './query-sets.ts';
import { candidatesOf, EdgeIndex, type RelationalPart } from './relational-part.ts';

export interface JudgingSheetOptions {
  /** A relational part as JSON, or the id of a committed query of an annotated set. */
  readonly argument: string;
  readonly nodes: readonly SkbNode[];
  readonly edges: readonly SkbEdge[];
  readonly readers: QuerySetReaders<'described' | 'hybrid'>;
  /** Id prefix of the described set's queries (`pk-des-`); any other id is looked up in `hybrid`. */
  readonly describedPrefix: string;
  /** One candidate's heading and text as the KB reads best (default: id, then the text indented). */
  readonly show?: (node: SkbNode) => string;
}

/**
 * The judging sheet of a hybrid or described query, as lines: every node that satisfies its
 * relational part with its document, and, for a committed query, each one's recorded judgment —
 * so the textual requirement can be judged by reading each candidate.
 */
export async function judgingSheet(options: JudgingSheetOptions): Promise<string[]> {
  const { argument, readers } = options;
  const index = new EdgeIndex(options.nodes, options.edges);
  const nodes = new Map(options.nodes.map((node) => [node.id, node]));
  const show = options.show ?? ((node: SkbNode) => `${node.id}\n    ${node.text.replace(/\n/g, '\n    ')}`);
  const lines: string[] = [];
  let part: RelationalPart;
  let judged = new Map<string, string>();
  if (argument.trim().startsWith('{')) part = JSON.parse(argument) as RelationalPart;
  else {
    const set = argument.startsWith(options.describedPrefix) ? 'described' : 'hybrid';
    const annotation = (await readers.readAnnotations(set)).find((a) => a.id === argument);
    const query = (await readers.readQuerySet(set)).find((q) => q.id === argument);
    if (!annotation || !query) throw new Error(`no ${set} query "${argument}"`);
    lines.push(
      `${query.id} [${query.split}] ${query.query}\nrequirement: ${query.meta?.textual_requirement}\n`,
    );
    part = annotation.relational_part;
    judged = new Map(annotation.candidates.map((c) => [c.id, `${c.gold ? 'GOLD' : 'no'}: ${c.reason}`]));
  }
  const candidates = candidatesOf(part, index);
  lines.push(`${candidates.length} candidates\n`);
  for (const id of candidates) {
    const [heading, ...rest] = show(nodes.get(id)!).split('\n');
    const verdict = judged.size > 0 ? `  => ${judged.get(id) ?? 'NOT JUDGED'}` : '';
    lines.push(`${[`${heading}${verdict}`, ...rest].join('\n')}\n`);
  }
  return lines;
}
