import type { Relation } from '@weft/kit';
import type { EdgeDirection } from '@weft/spec';

/** One neighbour of a node as a walk sees it: where the edge leads, its type, and which way it runs. */
export interface WalkNeighbor {
  readonly node: string;
  readonly nodeType: string;
  readonly edgeType: string;
  /** Seen from the node being left: `'out'` when the edge is stored that way. */
  readonly direction: EdgeDirection;
}

/** Loads the neighbours of many nodes at once (one graph call per wave of pushes). */
export type NeighborSource = (
  nodes: readonly string[],
) => Promise<ReadonlyMap<string, readonly WalkNeighbor[]>>;

export interface PushPageRankOptions {
  /** Restart distribution: node → weight (normalised here; non-positive weights are ignored). */
  readonly seeds: ReadonlyMap<string, number>;
  readonly neighbors: NeighborSource;
  /** Restart (teleport) probability α, in (0, 1) (default 0.25). */
  readonly alpha?: number;
  /**
   * Residual threshold ε (default 1e-4): a node is pushed only while its residual exceeds ε × its
   * degree, so a hub is pushed only when a large share of the walk reaches it. The estimate is
   * within ε × degree of the true PPR value for every node (Andersen, Chung and Lang, 2006).
   */
  readonly epsilon?: number;
  /** At most this many pushes in all (default 50,000): the hard bound on time. */
  readonly maxPushes?: number;
  /** At most this many waves, each one neighbour call for the nodes newly due (default 30). */
  readonly maxWaves?: number;
  readonly abortSignal?: AbortSignal;
}

/** The edge over which a node received the largest share of walk mass: its strongest incoming step. */
export interface WalkStep extends Relation {
  /** The direction is seen from here. */
  readonly from: string;
  readonly mass: number;
}

export interface PushPageRankResult {
  /** Approximate PPR value of every node that received any (sums to at most 1). */
  readonly rank: ReadonlyMap<string, number>;
  readonly types: ReadonlyMap<string, string>;
  /** Per reached node, its strongest incoming step (absent on seeds never reached by a step). */
  readonly strongest: ReadonlyMap<string, WalkStep>;
  readonly pushes: number;
  readonly waves: number;
  /** Walk mass not yet settled (the sum of residuals): the error budget left when a bound hit. */
  readonly residual: number;
  /** Why the walk stopped: converged, or a bound on pushes or waves. */
  readonly stopped: 'converged' | 'max-pushes' | 'max-waves';
}

/**
 * Personalized PageRank by forward push (Andersen–Chung–Lang): the walk's mass sits as residual on
 * the seeds; pushing a node settles α of its residual as rank and spreads the rest evenly over its
 * neighbours. Nodes whose residual exceeds ε × degree are pushed from a queue while their neighbours
 * are known; those that are not wait for the next wave, which loads them all in one call. The work
 * is bounded by 1 / (α ε) pushes whatever the graph,
 * and only the part of the graph the walk really reaches is ever loaded. A node without neighbours
 * keeps all its residual as rank (the walk restarts from it).
 */
export async function pushPersonalizedPageRank(options: PushPageRankOptions): Promise<PushPageRankResult> {
  const alpha = options.alpha ?? 0.25;
  const epsilon = options.epsilon ?? 1e-4;
  const maxPushes = options.maxPushes ?? 50_000;
  const maxWaves = options.maxWaves ?? 30;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  const residual = new Map<string, number>();
  const total = [...options.seeds.values()].reduce((s, w) => s + Math.max(w, 0), 0);
  if (total > 0) for (const [node, w] of options.seeds) if (w > 0) residual.set(node, w / total);
  const rank = new Map<string, number>();
  const types = new Map<string, string>();
  const strongest = new Map<string, WalkStep>();
  const adjacency = new Map<string, readonly WalkNeighbor[]>();
  const degree = (node: string) => Math.max(1, adjacency.get(node)?.length ?? 1);
  let pushes = 0;
  let waves = 0;
  let stopped: PushPageRankResult['stopped'] = 'converged';
  const due = (node: string) => (residual.get(node) ?? 0) > epsilon * degree(node);
  const queue = [...residual.keys()];
  let head = 0;
  const queued = new Set(queue);
  const pending = new Set<string>();
  for (;;) {
    // Push in memory while the due nodes' neighbours are known; the others wait for the next wave.
    while (head < queue.length && pushes < maxPushes) {
      const node = queue[head++]!;
      queued.delete(node);
      if (!due(node)) continue;
      if (!adjacency.has(node)) {
        pending.add(node);
        continue;
      }
      pushes++;
      const r = residual.get(node)!;
      residual.delete(node);
      const list = adjacency.get(node)!;
      if (list.length === 0) {
        rank.set(node, (rank.get(node) ?? 0) + r);
        continue;
      }
      rank.set(node, (rank.get(node) ?? 0) + alpha * r);
      const share = ((1 - alpha) * r) / list.length;
      for (const n of list) {
        residual.set(n.node, (residual.get(n.node) ?? 0) + share);
        const best = strongest.get(n.node);
        // Mass arriving over the same step adds up (repeated pushes along one edge).
        const mass = best && best.from === node && best.edgeType === n.edgeType ? best.mass + share : share;
        if (!best || mass > best.mass)
          strongest.set(n.node, { from: node, edgeType: n.edgeType, direction: n.direction, mass });
        if (!queued.has(n.node) && due(n.node)) {
          queued.add(n.node);
          queue.push(n.node);
        }
      }
    }
    if (pushes >= maxPushes && head < queue.length) {
      stopped = 'max-pushes';
      break;
    }
    const missing = [...pending].filter(due);
    pending.clear();
    if (missing.length === 0) break;
    if (waves >= maxWaves) {
      stopped = 'max-waves';
      break;
    }
    options.abortSignal?.throwIfAborted();
    waves++;
    const loaded = await options.neighbors(missing);
    for (const node of missing) {
      const list = loaded.get(node) ?? [];
      adjacency.set(node, list);
      for (const n of list) if (!types.has(n.node)) types.set(n.node, n.nodeType);
      // Checked again against its real degree: a hub loaded here may not be due after all.
      if (!queued.has(node)) {
        queued.add(node);
        queue.push(node);
      }
    }
  }
  let left = 0;
  for (const r of residual.values()) left += r;
  return { rank, types, strongest, pushes, waves, residual: left, stopped };
}
