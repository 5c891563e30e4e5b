import type { HopVia, Plan, Trajectory } from '@weft/spec';
import type { QueryAnswer } from './api-client.ts';

/** A node of the picture: where it sits (column = hops from the start) and what it is. */
export interface PictureNode {
  readonly id: string;
  readonly label: string;
  readonly type: string;
  /** `result`: the selected result; `anchor`: a node the plan linked a mention to. */
  readonly role: 'result' | 'anchor' | 'hop';
  /** How the node was first reached on a trajectory (anchors that no path used: `anchor`). */
  readonly via: HopVia;
  /** The query's words that named it, for anchors. */
  readonly mention?: string;
  readonly column: number;
  readonly row: number;
}

/** A node the plan linked a mention to that no drawn trajectory used: listed, folded away, not drawn. */
export interface UnusedAnchor {
  readonly id: string;
  readonly label: string;
  readonly type: string;
  readonly mention: string;
}

/**
 * A hop, drawn as the stored edge points (`source` → `target`, the arrow), whichever way the
 * trajectory walked it: `direction` `in` means the walk went from `target` back to `source`.
 */
export interface PictureEdge {
  readonly id: string;
  readonly source: string;
  readonly target: string;
  readonly edgeType: string;
  readonly direction: 'in' | 'out';
  /** The node the walk came from and the one it reached over this edge. */
  readonly walkedFrom: string;
  readonly walkedTo: string;
  readonly via: HopVia;
  readonly label: string;
  /** The plan paths (indexes into `plan.paths`) of the trajectories that took it. */
  readonly paths: readonly number[];
  /** How many of the drawn trajectories took it. */
  readonly weight: number;
}

export interface Picture {
  readonly nodes: readonly PictureNode[];
  readonly edges: readonly PictureEdge[];
  /** The plan's anchors that took no part in the drawn trajectories (folded away beside the picture). */
  readonly unusedAnchors: readonly UnusedAnchor[];
  /** Trajectories drawn, and how many the result had. */
  readonly shown: number;
  readonly total: number;
}

/** Names and types by node id (`explanation.labels`). */
export type NodeNames = Readonly<Record<string, { readonly name: string; readonly type: string }>>;

/**
 * `made_by→` for an edge followed as stored, `←made_by` for one followed backwards. Shorter than the
 * `—made_by→` of `relationLabel` (`@weft/kit`), which the rest of Weft writes: it labels edges of a
 * drawing that already has arrows, and the page loads only its own modules (no build step).
 */
export function edgeText(edgeType: string, direction: 'in' | 'out'): string {
  return direction === 'in' ? `←${edgeType}` : `${edgeType}→`;
}

const typeList = (types: readonly string[] | undefined, none: string) =>
  !types?.length ? none : types.length > 4 ? `${types.slice(0, 4).join('|')}|…` : types.join('|');

/** One planned path as a line: its start (an anchor or text matches), each typed hop and restriction. */
export function planPathText(plan: Plan, index: number, labels: NodeNames): string {
  const path = plan.paths[index]!;
  const anchor = path.anchor === undefined ? undefined : plan.anchors[path.anchor];
  const linked = anchor?.candidates[0];
  const start = anchor
    ? `“${anchor.mention}”${linked ? ` = ${labels[linked.id]?.name ?? linked.id}` : ''}`
    : `text matches of ${typeList(path.startTypes, 'any type')}`;
  const hops = path.hops.map(
    (hop) =>
      ` ${edgeText(hop.edgeType, hop.direction)} ${typeList(hop.nodeTypes, '*')}${hop.restriction ? ` [“${hop.restriction}”]` : ''}`,
  );
  return `${start}${hops.join('')}`;
}

/**
 * The picture of how one result was reached: the result's trajectories as hops from their start to
 * the result, at most `maxTrajectories` of them, with the anchors they started from. Nodes are laid
 * out in columns by how many hops from a start they were first met, the result last. The plan's
 * anchors that no drawn trajectory used are not drawn: they come back as `unusedAnchors`.
 */
export function buildPicture(answer: QueryAnswer, resultId: string, maxTrajectories = 12): Picture {
  const explanation = answer.explanation;
  const labels = explanation?.labels ?? {};
  const trajectories: readonly Trajectory[] = explanation?.trajectories[resultId] ?? [];
  const drawn = trajectories.slice(0, maxTrajectories);
  const result = answer.results.find((r) => r.id === resultId);

  const nodes = new Map<
    string,
    { id: string; role: PictureNode['role']; via: HopVia; mention?: string; column: number; type?: string }
  >();
  const meet = (id: string, column: number, via: HopVia, type?: string) => {
    const known = nodes.get(id);
    if (!known) nodes.set(id, { id, role: 'hop', via, column, ...(type ? { type } : {}) });
    else if (column < known.column) known.column = column;
  };
  const edges = new Map<
    string,
    {
      source: string;
      target: string;
      edgeType: string;
      direction: 'in' | 'out';
      via: HopVia;
      paths: Set<number>;
      weight: number;
    }
  >();
  for (const trajectory of drawn) {
    trajectory.hops.forEach((hop, k) => {
      meet(hop.node, k, hop.via, hop.nodeType);
      const previous = trajectory.hops[k - 1];
      if (!previous || !hop.edgeType) return;
      const direction = hop.direction ?? 'out';
      const key = `${previous.node}|${hop.node}|${hop.edgeType}|${direction}`;
      const edge = edges.get(key) ?? {
        source: previous.node,
        target: hop.node,
        edgeType: hop.edgeType,
        direction,
        via: hop.via,
        paths: new Set<number>(),
        weight: 0,
      };
      edge.weight++;
      if (trajectory.path !== undefined) edge.paths.add(trajectory.path);
      edges.set(key, edge);
    });
  }
  // The plan's anchors: the nodes its mentions were linked to. Those a trajectory used are drawn as
  // anchors; the best link of every other mention is listed as taking no part.
  const unused = new Map<string, UnusedAnchor>();
  for (const anchor of explanation?.plan?.anchors ?? []) {
    anchor.candidates.forEach((linked, rank) => {
      const node = nodes.get(linked.id);
      if (node && linked.id !== resultId) {
        node.role = 'anchor';
        node.mention ??= anchor.mention;
      } else if (!node && rank === 0 && linked.id !== resultId && !unused.has(linked.id))
        unused.set(linked.id, {
          id: linked.id,
          label: labels[linked.id]?.name ?? linked.id,
          type: labels[linked.id]?.type ?? linked.type ?? '?',
          mention: anchor.mention,
        });
    });
  }
  meet(resultId, 0, 'text', result?.type ?? undefined);
  const resultNode = nodes.get(resultId)!;
  resultNode.role = 'result';
  const others = [...nodes.values()].filter((n) => n.id !== resultId);
  resultNode.column = others.length ? Math.max(resultNode.column, ...others.map((n) => n.column + 1)) : 0;

  const rows = new Map<number, number>();
  const pictureNodes: PictureNode[] = [...nodes.values()]
    .sort((a, b) => a.column - b.column)
    .map((n) => {
      const row = rows.get(n.column) ?? 0;
      rows.set(n.column, row + 1);
      const label = labels[n.id]?.name ?? (n.id === resultId ? (result?.name ?? n.id) : n.id);
      return {
        id: n.id,
        label,
        type: labels[n.id]?.type ?? n.type ?? '?',
        role: n.role,
        via: n.via,
        ...(n.mention ? { mention: n.mention } : {}),
        column: n.column,
        row,
      };
    });
  // The arrow is the stored edge: a hop walked backwards (`in`) points from where the walk arrived.
  const pictureEdges: PictureEdge[] = [...edges.values()].map((e, i) => ({
    id: `e${i}`,
    source: e.direction === 'in' ? e.target : e.source,
    target: e.direction === 'in' ? e.source : e.target,
    walkedFrom: e.source,
    walkedTo: e.target,
    edgeType: e.edgeType,
    direction: e.direction,
    via: e.via,
    label: `${e.edgeType} · ${e.via}`,
    paths: [...e.paths].sort((a, b) => a - b),
    weight: e.weight,
  }));
  return {
    nodes: pictureNodes,
    edges: pictureEdges,
    unusedAnchors: [...unused.values()],
    shown: drawn.length,
    total: trajectories.length,
  };
}
