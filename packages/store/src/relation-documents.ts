import { edgeTypeWords } from '@weft/kit';
import type { SkbEdge, SkbNode, SkbSchema } from '@weft/spec';

export interface RelationDocumentOptions {
  /** Most neighbour names per (node, edge type) followed outwards (default 50). */
  readonly outLimit?: number;
  /**
   * Most per (node, edge type) followed inwards (default 20). Lower than outwards: a hub's incoming
   * edges (every package that depends on libc) say little about the hub itself.
   */
  readonly inLimit?: number;
  /**
   * Words of each neighbour's own text written after its name in the relation text of a node
   * described by its neighbours (`describedByNeighbours`; default 8; 0: names only).
   */
  readonly snippetWords?: number;
}

/** Edge type names as words: `part_meronym` → `part meronym`, `depends-on` → `depends on` (`@weft/kit`'s). */
export { edgeTypeWords };

/**
 * @deprecated use `edgeTypeWords`: `relationLabel` of `@weft/kit` is another thing (a relation with
 * its direction, e.g. `←made_by—` or the lexical planner's class label `hypernym|in`).
 */
export const relationLabel = edgeTypeWords;

/**
 * The relation text of every node of the target types, and of every node described by its
 * neighbours (`describedByNeighbours`): its neighbours' names grouped by edge type and direction,
 * each group labelled with the edge type's words, e.g. `hypernym: headache ; hypernym: migraine,
 * cluster headache`. Indexed on its own and together with the node's document, it lets BM25 match
 * what a question says about a node's neighbours ("a kind of headache", "depends on libssl"). A node
 * described by its neighbours (a maintainer, a tag, a source package) gets more: each neighbour's
 * name is followed by the first words of its text (`maintained by: electrum (Easy to use Bitcoin
 * client …)`), so "the cryptocurrency packaging team" can find it without naming it. Which
 * neighbours are kept when a group is capped is decided by the order of the edges in the bundle,
 * so a rebuild gives the same text.
 *
 * Memory: one name and one snippet per node, and at most `outLimit + inLimit` neighbours per
 * described node and edge type.
 */
export class RelationDocuments {
  private readonly index = new Map<string, number>();
  private readonly names: string[] = [];
  /** Per node: whether it gets relation text (a target node, or one described by its neighbours). */
  private readonly related: boolean[] = [];
  /** Per node: the first `snippetWords` words of its text ('' for a node with none). */
  private readonly snippets: string[] = [];
  /** Per node: whether its relation text quotes its neighbours' snippets. */
  private readonly quoting: boolean[] = [];
  private readonly edgeTypes: string[];
  private readonly edgeTypeIndex: Map<string, number>;
  /** Per related node: [group, neighbour] pairs in arrival order; group = edgeType * 2 + (in ? 1 : 0). */
  private readonly entries = new Map<number, number[]>();
  /** Per related node: how many neighbours each group holds. */
  private readonly counts = new Map<number, Uint16Array>();
  private readonly outLimit: number;
  private readonly inLimit: number;
  private readonly snippetWords: number;

  private constructor(schema: SkbSchema, options: RelationDocumentOptions) {
    this.edgeTypes = [...new Set(schema.edgeTypes.map((e) => e.name))];
    this.edgeTypeIndex = new Map(this.edgeTypes.map((name, i) => [name, i]));
    this.outLimit = options.outLimit ?? 50;
    this.inLimit = options.inLimit ?? 20;
    this.snippetWords = options.snippetWords ?? 8;
  }

  /** Reads the nodes (names, snippets, which get relation text) and then the edges, in one pass each. */
  static async build(
    schema: SkbSchema,
    nodes: AsyncIterable<SkbNode>,
    edges: AsyncIterable<SkbEdge>,
    options: RelationDocumentOptions = {},
  ): Promise<RelationDocuments> {
    const documents = new RelationDocuments(schema, options);
    const targets = schema.targetTypes ? new Set(schema.targetTypes) : undefined;
    for await (const node of nodes) {
      documents.index.set(node.id, documents.names.length);
      documents.names.push(node.name);
      documents.snippets.push(firstWords(node.text, documents.snippetWords));
      const target = targets ? targets.has(node.type) : true;
      const quoting = describedByNeighbours(node, targets);
      documents.quoting.push(quoting);
      documents.related.push(target || quoting);
    }
    for await (const edge of edges) documents.addEdge(edge);
    return documents;
  }

  private addEdge(edge: SkbEdge): void {
    const src = this.index.get(edge.src);
    const dst = this.index.get(edge.dst);
    const type = this.edgeTypeIndex.get(edge.type);
    // The bundle was validated: an unknown id or type cannot occur; skip rather than fail if it does.
    if (src === undefined || dst === undefined || type === undefined) return;
    if (this.related[src]) this.add(src, type * 2, dst, this.outLimit);
    if (this.related[dst]) this.add(dst, type * 2 + 1, src, this.inLimit);
  }

  private add(node: number, group: number, neighbour: number, limit: number): void {
    let counts = this.counts.get(node);
    if (!counts) {
      counts = new Uint16Array(this.edgeTypes.length * 2);
      this.counts.set(node, counts);
    }
    if (counts[group]! >= limit) return;
    counts[group]! += 1;
    let list = this.entries.get(node);
    if (!list) {
      list = [];
      this.entries.set(node, list);
    }
    list.push(group, neighbour);
  }

  /** The relation text of a node; empty for nodes without neighbours or without relation text. */
  text(id: string): string {
    const node = this.index.get(id);
    const list = node === undefined ? undefined : this.entries.get(node);
    if (!list) return '';
    const quotes = this.quoting[node!]!;
    const groups = new Map<number, string[]>();
    for (let i = 0; i < list.length; i += 2) {
      const group = list[i]!;
      const neighbour = list[i + 1]!;
      const names = groups.get(group) ?? groups.set(group, []).get(group)!;
      const snippet = quotes ? this.snippets[neighbour]! : '';
      names.push(snippet ? `${this.names[neighbour]!} (${snippet})` : this.names[neighbour]!);
    }
    return [...groups]
      .sort((a, b) => a[0] - b[0])
      .map(([group, names]) => `${edgeTypeWords(this.edgeTypes[group >> 1]!)}: ${names.join(', ')}`)
      .join(' ; ');
  }
}

/** The first `count` words of `text`, with an ellipsis when it goes on. */
function firstWords(text: string, count: number): string {
  if (count <= 0) return '';
  // Words are rarely longer than 40 characters: the head of a long text is enough to split.
  const words = text
    .slice(0, (count + 1) * 40)
    .trim()
    .split(/\s+/)
    .filter((word) => word.length > 0);
  return words.length > count ? `${words.slice(0, count).join(' ')} …` : words.join(' ');
}

/**
 * Whether a node's relation text quotes its neighbours' texts: a node with no text of its own, and
 * a node outside the target types (never an answer: a brand, an author, a tag), whose own text, if
 * any, is seldom more than a label. Questions describe such nodes by what they are linked to.
 */
export function describedByNeighbours(node: SkbNode, targets: ReadonlySet<string> | undefined): boolean {
  return node.text.trim().length === 0 || (targets !== undefined && !targets.has(node.type));
}
