import type { SkbEdge, SkbNode } from '@weft/spec';

export interface Hub {
  readonly id: string;
  readonly degree: number;
}

export interface GraphStatistics {
  readonly nodes: number;
  readonly edges: number;
  readonly nodesByType: Readonly<Record<string, number>>;
  /** `<edge type> <from type>-><to type>` -> count. */
  readonly edgesBySignature: Readonly<Record<string, number>>;
  /** The ten nodes with the most incoming `depends` edges. */
  readonly hubs: readonly Hub[];
}

export const edgeSignature = (type: string, from: string, to: string) => `${type} ${from}->${to}`;

export function graphStatistics(nodes: readonly SkbNode[], edges: readonly SkbEdge[]): GraphStatistics {
  const typeOf = new Map(nodes.map((n) => [n.id, n.type]));
  const nodesByType: Record<string, number> = {};
  for (const node of nodes) nodesByType[node.type] = (nodesByType[node.type] ?? 0) + 1;
  const edgesBySignature: Record<string, number> = {};
  const dependedOn = new Map<string, number>();
  for (const edge of edges) {
    const signature = edgeSignature(edge.type, typeOf.get(edge.src) ?? '?', typeOf.get(edge.dst) ?? '?');
    edgesBySignature[signature] = (edgesBySignature[signature] ?? 0) + 1;
    if (edge.type === 'depends') dependedOn.set(edge.dst, (dependedOn.get(edge.dst) ?? 0) + 1);
  }
  const hubs = [...dependedOn]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 10)
    .map(([id, degree]) => ({ id, degree }));
  return { nodes: nodes.length, edges: edges.length, nodesByType, edgesBySignature, hubs };
}
