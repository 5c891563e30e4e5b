import type { SkbEdge, SkbNode } from '@weft/spec';

export interface Hub {
  readonly id: string;
  readonly name: string;
  /** Edges that end at the node (its in-degree), of all types. */
  readonly degree: number;
}

export interface GraphStatistics {
  readonly nodes: number;
  readonly edges: number;
  readonly nodesByType: Readonly<Record<string, number>>;
  readonly edgesByType: Readonly<Record<string, number>>;
  /** Edges by type and end node types, keyed `has_type move type`: one name can join several pairs. */
  readonly edgesBySignature: Readonly<Record<string, number>>;
  /** The nodes with the most incoming edges, most first. */
  readonly hubs: readonly Hub[];
}

const tally = (keys: Iterable<string>) => {
  const counts: Record<string, number> = {};
  for (const key of keys) counts[key] = (counts[key] ?? 0) + 1;
  return counts;
};

/** The key of `edgesBySignature`. */
export const edgeSignature = (type: string, from = '?', to = '?') => `${type} ${from} ${to}`;

/**
 * Counts for SOURCE.md and the build report. Hubs are ranked by in-degree, where this graph's hubs
 * are (a move learned by a thousand species, a type shared by hundreds).
 */
export function graphStatistics(
  nodes: readonly SkbNode[],
  edges: readonly SkbEdge[],
  hubCount = 10,
): GraphStatistics {
  const inDegree = tally(edges.map((e) => e.dst));
  const names = new Map(nodes.map((n) => [n.id, n.name]));
  const types = new Map(nodes.map((n) => [n.id, n.type]));
  const hubs = Object.entries(inDegree)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .slice(0, hubCount)
    .map(([id, degree]) => ({ id, name: names.get(id) ?? id, degree }));
  return {
    nodes: nodes.length,
    edges: edges.length,
    nodesByType: tally(nodes.map((n) => n.type)),
    edgesByType: tally(edges.map((e) => e.type)),
    edgesBySignature: tally(edges.map((e) => edgeSignature(e.type, types.get(e.src), types.get(e.dst)))),
    hubs,
  };
}
