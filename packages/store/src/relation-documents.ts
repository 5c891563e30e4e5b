import type { SkbEdge, SkbNode, SkbSchema } from '@weft/spec';

export interface RelationDocumentOptions {
  /** Most neighbour names per (node, edge type) followed outwards (default 50). */
  readonly outLimit?: number;
  /**
   * Most per (node, edge type) followed inwards (default 20). Lower than outwards: a hub's incoming
   * edges (every package that depends on libc) say little about the hub itself.
   */
  readonly inLimit?: number;
}

/** Edge type names as words: `part_meronym` → `part meronym`, `depends-on` → `depends on`. */
export function edgeTypeWords(edgeType: string): string {
  return edgeType.replace(/[_\-.:/]+/g, ' ').trim();
}

/**
 * @deprecated use `edgeTypeWords`: `relationLabel` of `@weft/planner-lexical` is another thing (the
 * class label `hypernym|in` its model predicts).
 */
export const relationLabel = edgeTypeWords;

/**
 * The relation text of every node of the target types: its neighbours' names grouped by edge type
 * and direction, each group labelled with the edge type's words, e.g.
 * `hypernym: headache ; hypernym: migraine, cluster headache`. Indexed on its own and together with
 * the node's document, it lets BM25 match what a question says about a node's neighbours
 * ("a kind of headache", "depends on libssl"). Which neighbours are kept when a group is capped is
 * decided by the order of the edges in the bundle, so a rebuild gives the same text.
 *
 * Memory: one name per node and at most `outLimit + inLimit` neighbours per target node and edge type.
 */
export class RelationDocuments {
  private readonly index = new Map<string, number>();
  private readonly names: string[] = [];
  private readonly target: boolean[] = [];
  private readonly edgeTypes: string[];
  private readonly edgeTypeIndex: Map<string, number>;
  /** Per target node: [group, neighbour] pairs in arrival order; group = edgeType * 2 + (in ? 1 : 0). */
  private readonly entries = new Map<number, number[]>();
  /** Per target node: how many neighbours each group holds. */
  private readonly counts = new Map<number, Uint16Array>();
  private readonly outLimit: number;
  private readonly inLimit: number;

  private constructor(schema: SkbSchema, options: RelationDocumentOptions) {
    this.edgeTypes = [...new Set(schema.edgeTypes.map((e) => e.name))];
    this.edgeTypeIndex = new Map(this.edgeTypes.map((name, i) => [name, i]));
    this.outLimit = options.outLimit ?? 50;
    this.inLimit = options.inLimit ?? 20;
  }

  /** Reads the nodes (names, which are targets) and then the edges, in one pass each. */
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
      documents.target.push(targets ? targets.has(node.type) : true);
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
    if (this.target[src]) this.add(src, type * 2, dst, this.outLimit);
    if (this.target[dst]) this.add(dst, type * 2 + 1, src, this.inLimit);
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

  /** The relation text of a node; empty for nodes without neighbours or outside the target types. */
  text(id: string): string {
    const node = this.index.get(id);
    const list = node === undefined ? undefined : this.entries.get(node);
    if (!list) return '';
    const groups = new Map<number, string[]>();
    for (let i = 0; i < list.length; i += 2) {
      const group = list[i]!;
      const names = groups.get(group) ?? groups.set(group, []).get(group)!;
      names.push(this.names[list[i + 1]!]!);
    }
    return [...groups]
      .sort((a, b) => a[0] - b[0])
      .map(([group, names]) => `${edgeTypeWords(this.edgeTypes[group >> 1]!)}: ${names.join(', ')}`)
      .join(' ; ');
  }
}
