import type { EdgeDirection, GraphStoreV1, SkbNode, SkbSchema } from '@weft/spec';

/** The neighbours of a node over one edge type, followed one way, capped. */
export interface NeighbourGroup {
  readonly edgeType: string;
  /** `out`: node —edgeType→ neighbour as stored; `in`: neighbour —edgeType→ node. */
  readonly direction: EdgeDirection;
  readonly nodes: readonly { readonly id: string; readonly type: string; readonly name: string | null }[];
  /** More neighbours exist than are listed. */
  readonly truncated: boolean;
}

export interface NodeView {
  readonly node: Omit<SkbNode, 'text'>;
  /** The node's document. */
  readonly document: string;
  readonly neighbours: readonly NeighbourGroup[];
}

/** Edge types (and directions) that can touch a node of `type`; `*` in the schema means any type. */
function edgeSides(schema: SkbSchema, type: string): { edgeType: string; direction: EdgeDirection }[] {
  const sides: { edgeType: string; direction: EdgeDirection }[] = [];
  for (const edge of schema.edgeTypes) {
    if (edge.from === type || edge.from === '*') sides.push({ edgeType: edge.name, direction: 'out' });
    if (edge.to === type || edge.to === '*') sides.push({ edgeType: edge.name, direction: 'in' });
  }
  return sides;
}

/**
 * A node with its document and its neighbours grouped by edge type and direction, at most
 * `maxPerGroup` per group. One expansion per group (asking for one more than shown tells whether
 * the group was cut) keeps a hub's thousands of hyponyms from crowding out its other relations.
 */
export async function nodeView(
  graph: GraphStoreV1,
  schema: SkbSchema,
  id: string,
  maxPerGroup: number,
  abortSignal?: AbortSignal,
): Promise<NodeView | undefined> {
  const [node] = await graph.doGetNodes([id], abortSignal ? { abortSignal } : {});
  if (!node) return undefined;
  const groups = await Promise.all(
    edgeSides(schema, node.type).map(async ({ edgeType, direction }) => {
      const found = await graph.doNeighbors({
        seeds: [id],
        edgeTypes: [edgeType],
        direction,
        limitPerSeed: maxPerGroup + 1,
        ...(abortSignal ? { abortSignal } : {}),
      });
      return { edgeType, direction, found };
    }),
  );
  const shown = groups
    .filter((g) => g.found.length > 0)
    .map((g) => ({ ...g, found: g.found.slice(0, maxPerGroup), truncated: g.found.length > maxPerGroup }));
  const names = await graph.doGetNodes(
    [...new Set(shown.flatMap((g) => g.found.map((n) => n.node)))],
    abortSignal ? { abortSignal } : {},
  );
  const nameOf = new Map(names.flatMap((n) => (n ? [[n.id, n.name] as const] : [])));
  const { text, ...rest } = node;
  return {
    node: rest,
    document: text,
    neighbours: shown.map((g) => ({
      edgeType: g.edgeType,
      direction: g.direction,
      nodes: g.found.map((n) => ({ id: n.node, type: n.nodeType, name: nameOf.get(n.node) ?? null })),
      truncated: g.truncated,
    })),
  };
}
