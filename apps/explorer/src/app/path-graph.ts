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
  /** Anchors no drawn trajectory used sit in a band below the paths (a fractional row). */
  readonly row: number;
}

/** A hop, drawn in the order it was taken; `direction` says which way the stored edge points. */
export interface PictureEdge {
  readonly id: string;
  readonly source: string;
  readonly target: string;
  readonly edgeType: string;
  readonly direction: 'in' | 'out';
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
  /** Trajectories drawn, and how many the result had. */
  readonly shown: number;
  readonly total: number;
}

/** Names and types by node id (`explanation.labels`). */
export type NodeNames = Readonly<Record<string, { readonly name: string; readonly type: string }>>;

/** `made_by→` for an edge followed as stored, `←made_by` for one followed backwards. */
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
 * The picture of how one result was reached: the plan's anchors (linked nodes), and the result's
 * trajectories as hops from their start to the result, at most `maxTrajectories` of them. Nodes are
 * laid out in columns by how many hops from a start they were first met, the result last.
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
  // The plan's anchors: the nodes its mentions were linked to — the best link of every mention, and
  // any other link a trajectory started from. Those no trajectory used go in a band of their own.
  const offPath = new Set<string>();
  for (const anchor of explanation?.plan?.anchors ?? []) {
    anchor.candidates.forEach((linked, rank) => {
      const onPath = nodes.has(linked.id);
      if (!onPath && rank > 0) return;
      if (!onPath) {
        offPath.add(linked.id);
        meet(linked.id, 0, 'anchor', linked.type);
      }
      const node = nodes.get(linked.id)!;
      node.role = 'anchor';
      node.mention ??= anchor.mention;
    });
  }
  meet(resultId, 0, 'text', result?.type ?? undefined);
  const resultNode = nodes.get(resultId)!;
  resultNode.role = 'result';
  const onPath = [...nodes.values()].filter((n) => n.id !== resultId && !offPath.has(n.id));
  resultNode.column = onPath.length ? Math.max(resultNode.column, ...onPath.map((n) => n.column + 1)) : 0;

  const rows = new Map<number, number>();
  for (const n of nodes.values()) if (!offPath.has(n.id)) rows.set(n.column, (rows.get(n.column) ?? 0) + 1);
  const band = Math.max(1, ...rows.values()) + 0.5;
  rows.clear();
  let bandColumn = 0;
  const pictureNodes: PictureNode[] = [...nodes.values()]
    .sort((a, b) => Number(offPath.has(a.id)) - Number(offPath.has(b.id)) || a.column - b.column)
    .map((n) => {
      let row: number;
      if (offPath.has(n.id)) {
        n.column = bandColumn++;
        row = band;
      } else {
        row = rows.get(n.column) ?? 0;
        rows.set(n.column, row + 1);
      }
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
  const pictureEdges: PictureEdge[] = [...edges.values()].map((e, i) => ({
    id: `e${i}`,
    source: e.source,
    target: e.target,
    edgeType: e.edgeType,
    direction: e.direction,
    via: e.via,
    label: `${edgeText(e.edgeType, e.direction)} · ${e.via}`,
    paths: [...e.paths].sort((a, b) => a - b),
    weight: e.weight,
  }));
  return { nodes: pictureNodes, edges: pictureEdges, shown: drawn.length, total: trajectories.length };
}
