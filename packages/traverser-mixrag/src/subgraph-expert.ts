import { prizeCollectingSteinerTree } from '@weft/pcst';
import type { Relation } from '@weft/kit';
import type { Neighbourhood, Triple } from './neighbourhood.ts';

export interface SubgraphExpertOptions {
  /** Nodes given prizes by rank: the top k get k, k − 1, …, 1 (default 10). */
  readonly nodePrizes?: number;
  /** Triples given prizes by rank the same way (default 10). */
  readonly edgePrizes?: number;
  /** Cost of every edge (default 0.5, G-Retriever's). */
  readonly edgeCost?: number;
}

/** One edge of the tree seen from a node: the way to walk it in a trajectory. */
export interface TreeStep extends Relation {
  /** The direction is seen from here. */
  readonly from: string;
  readonly to: string;
}

export interface SubgraphExpertResult {
  /** The tree's nodes. */
  readonly nodes: ReadonlySet<string>;
  /** The tree's edges, as stored. */
  readonly triples: readonly Triple[];
  /** The tree's root: its highest-prize node, where every path of the evidence starts. */
  readonly root?: string;
  /** Per tree node, the path of steps from the root to it. */
  readonly paths: ReadonlyMap<string, readonly TreeStep[]>;
  /** Per tree node, its prize (0 for the connectors the tree needed). */
  readonly prizes: ReadonlyMap<string, number>;
}

/**
 * MixRAG's subgraph expert, as G-Retriever builds its subgraph: prizes on the top nodes (of the
 * entity expert and the named nodes) and the top triples (of the relation expert) by rank, a cost
 * per edge, and the prize-collecting Steiner tree over the neighbourhood: a small connected piece
 * of the graph that holds as much of what matched as its edges are worth.
 */
export function subgraphExpert(
  neighbourhood: Neighbourhood,
  rankedNodes: readonly string[],
  rankedTriples: readonly Triple[],
  options: SubgraphExpertOptions = {},
): SubgraphExpertResult {
  const index = new Map<string, number>();
  const ids: string[] = [];
  const indexOf = (id: string) => {
    let i = index.get(id);
    if (i === undefined) {
      i = ids.length;
      index.set(id, i);
      ids.push(id);
    }
    return i;
  };
  for (const id of rankedNodes) indexOf(id);
  const edges = neighbourhood.triples.map((t) => [indexOf(t.head), indexOf(t.tail)] as const);
  const k = options.nodePrizes ?? 10;
  const prizes = new Float64Array(ids.length);
  rankedNodes.slice(0, k).forEach((id, rank) => {
    const i = index.get(id)!;
    prizes[i] = Math.max(prizes[i]!, k - rank);
  });
  const key = (t: Triple) => `${t.head}\u0000${t.edgeType}\u0000${t.tail}`;
  const tripleIndex = new Map(neighbourhood.triples.map((t, i) => [key(t), i]));
  const ke = options.edgePrizes ?? 10;
  const edgePrizes = new Float64Array(edges.length);
  rankedTriples.slice(0, ke).forEach((t, rank) => {
    const e = tripleIndex.get(key(t));
    if (e !== undefined) edgePrizes[e] = Math.max(edgePrizes[e]!, ke - rank);
  });
  const tree = prizeCollectingSteinerTree({
    nodeCount: ids.length,
    prizes,
    edges,
    costs: new Float64Array(edges.length).fill(options.edgeCost ?? 0.5),
    edgePrizes,
  });
  const nodes = new Set(tree.nodes.map((i) => ids[i]!));
  const triples = tree.edges.map((e) => neighbourhood.triples[e]!);
  const prizeOf = new Map(tree.nodes.map((i) => [ids[i]!, prizes[i]!]));
  if (nodes.size === 0) return { nodes, triples, paths: new Map(), prizes: prizeOf };
  const root = [...nodes].sort((a, b) => prizeOf.get(b)! - prizeOf.get(a)! || a.localeCompare(b))[0]!;
  // Paths from the root through the tree (breadth first), one per node.
  const adjacency = new Map<string, TreeStep[]>();
  for (const t of triples) {
    (adjacency.get(t.head) ?? adjacency.set(t.head, []).get(t.head)!).push({
      from: t.head,
      to: t.tail,
      edgeType: t.edgeType,
      direction: 'out',
    });
    (adjacency.get(t.tail) ?? adjacency.set(t.tail, []).get(t.tail)!).push({
      from: t.tail,
      to: t.head,
      edgeType: t.edgeType,
      direction: 'in',
    });
  }
  const paths = new Map<string, readonly TreeStep[]>([[root, []]]);
  const queue = [root];
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head]!;
    for (const step of adjacency.get(node) ?? []) {
      if (paths.has(step.to)) continue;
      paths.set(step.to, [...paths.get(node)!, step]);
      queue.push(step.to);
    }
  }
  return { nodes, triples, root, paths, prizes: prizeOf };
}
