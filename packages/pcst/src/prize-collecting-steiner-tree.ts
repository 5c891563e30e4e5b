import { MinHeap } from './min-heap.ts';

/** An undirected graph with a prize on every node and a cost on every edge (node indices from 0). */
export interface PcstGraph {
  /** Number of nodes; nodes are `0 … nodeCount - 1`. */
  readonly nodeCount: number;
  /** `prizes[v]` ≥ 0: what including node `v` earns. */
  readonly prizes: ArrayLike<number>;
  /** Undirected edges as pairs of node indices; self-loops are ignored. */
  readonly edges: readonly (readonly [number, number])[];
  /** `costs[e]` ≥ 0: what including edge `e` costs. */
  readonly costs: ArrayLike<number>;
  /**
   * Optional `edgePrizes[e]` ≥ 0 (G-Retriever's prizes on edges): what including edge `e` earns.
   * An edge whose prize is below its cost costs the difference; one whose prize exceeds its cost
   * becomes a free path through a virtual node holding the surplus.
   */
  readonly edgePrizes?: ArrayLike<number>;
}

/** A tree of the graph: its nodes, its edges (indices into `PcstGraph.edges`) and its net value. */
export interface PcstTree {
  /** Ascending node indices; empty only when the graph has no node with a positive prize. */
  readonly nodes: readonly number[];
  /** Ascending edge indices; `nodes.length - 1` of them (the tree is connected and acyclic). */
  readonly edges: readonly number[];
  /** Node prizes + edge prizes − edge costs of the tree: the objective it maximises. */
  readonly value: number;
}

const epsilon = 1e-12;

/** The working graph: the input's nodes plus one virtual node per edge whose prize exceeds its cost. */
interface WorkGraph {
  readonly nodes: number;
  readonly prizes: Float64Array;
  readonly from: Int32Array;
  readonly to: Int32Array;
  readonly cost: Float64Array;
  /** The input edge a working edge stands for. */
  readonly origin: Int32Array;
}

function workGraph(graph: PcstGraph): WorkGraph {
  const surplus: number[] = [];
  const from: number[] = [];
  const to: number[] = [];
  const cost: number[] = [];
  const origin: number[] = [];
  let nodes = graph.nodeCount;
  graph.edges.forEach(([u, v], e) => {
    if (u === v) return;
    const c = graph.costs[e] ?? 0;
    const q = graph.edgePrizes?.[e] ?? 0;
    if (q > c) {
      // The edge pays for itself: two free halves through a node holding what is left over.
      const z = nodes++;
      surplus.push(q - c);
      from.push(u, z);
      to.push(z, v);
      cost.push(0, 0);
      origin.push(e, e);
    } else {
      from.push(u);
      to.push(v);
      cost.push(c - q);
      origin.push(e);
    }
  });
  const prizes = new Float64Array(nodes);
  for (let v = 0; v < graph.nodeCount; v++) prizes[v] = Math.max(0, graph.prizes[v] ?? 0);
  surplus.forEach((p, i) => {
    prizes[graph.nodeCount + i] = p;
  });
  return {
    nodes,
    prizes,
    from: Int32Array.from(from),
    to: Int32Array.from(to),
    cost: Float64Array.from(cost),
    origin: Int32Array.from(origin),
  };
}

/**
 * The growth phase of Goemans–Williamson: every node starts as an active cluster whose moat grows
 * until its prizes are paid for; an edge whose two moats together reach its cost becomes tight and
 * joins its clusters. Moat sizes are kept as offsets in a weighted union-find, so an edge's slack
 * is read in near-constant time; edge events are re-checked when popped (deactivations only delay
 * them), and an inactive cluster that an active one absorbs re-queues its own boundary edges.
 * Returns the tight edges that joined clusters: a forest.
 */
function growForest(g: WorkGraph): number[] {
  const n = g.nodes;
  const parent = new Int32Array(n);
  const offset = new Float64Array(n);
  const accumulated = new Float64Array(n);
  const since = new Float64Array(n);
  const budget = new Float64Array(n);
  const active = new Uint8Array(n);
  const deactivateAt = new Float64Array(n);
  const boundary: number[][] = Array.from({ length: n }, () => []);
  for (let e = 0; e < g.from.length; e++) {
    boundary[g.from[e]!]!.push(e);
    boundary[g.to[e]!]!.push(e);
  }
  const heap = new MinHeap();
  let now = 0;
  for (let v = 0; v < n; v++) {
    parent[v] = v;
    budget[v] = g.prizes[v]!;
    if (budget[v]! > epsilon) {
      active[v] = 1;
      deactivateAt[v] = budget[v]!;
      heap.push(budget[v]!, -(v + 1));
    }
  }

  const path = new Int32Array(n);
  const find = (x: number): number => {
    let root = x;
    let length = 0;
    while (parent[root] !== root) {
      path[length++] = root;
      root = parent[root]!;
    }
    // Path compression, summing the offsets on the way so every node points at the root directly.
    let sum = 0;
    for (let i = length - 1; i >= 0; i--) {
      const p = path[i]!;
      sum += offset[p]!;
      offset[p] = sum;
      parent[p] = root;
    }
    return root;
  };
  /** How far the moats around `x` have grown by now. */
  const depth = (x: number): number => {
    const root = find(x);
    return (x === root ? 0 : offset[x]!) + accumulated[root]! + (active[root] ? now - since[root]! : 0);
  };
  const schedule = (e: number): void => {
    const a = find(g.from[e]!);
    const b = find(g.to[e]!);
    if (a === b) return;
    const rate = active[a]! + active[b]!;
    if (rate === 0) return;
    const slack = g.cost[e]! - depth(g.from[e]!) - depth(g.to[e]!);
    heap.push(now + Math.max(0, slack) / rate, e);
  };
  /** Brings a cluster's growth up to now, so that merging starts from settled figures. */
  const settle = (root: number): void => {
    if (active[root]) {
      const grown = now - since[root]!;
      accumulated[root]! += grown;
      budget[root] = Math.max(0, budget[root]! - grown);
    }
    since[root] = now;
  };

  for (let e = 0; e < g.from.length; e++) schedule(e);
  const forest: number[] = [];
  let activeCount = active.reduce((s, a) => s + a, 0);
  while (heap.size > 0 && activeCount > 0) {
    const time = heap.peekKey();
    const event = heap.pop();
    now = Math.max(now, time);
    if (event < 0) {
      const cluster = -event - 1;
      if (parent[cluster] !== cluster || !active[cluster] || deactivateAt[cluster] !== time) continue;
      settle(cluster);
      active[cluster] = 0;
      budget[cluster] = 0;
      activeCount--;
      continue;
    }
    const a = find(g.from[event]!);
    const b = find(g.to[event]!);
    if (a === b) continue;
    const slack = g.cost[event]! - depth(g.from[event]!) - depth(g.to[event]!);
    if (slack > epsilon * (1 + g.cost[event]!)) {
      // A moat stopped growing since this was queued: the edge is tight later, if ever.
      schedule(event);
      continue;
    }
    forest.push(event);
    settle(a);
    settle(b);
    // The larger boundary keeps its array; the other's edges are appended (small into large).
    const [keep, drop] = boundary[a]!.length >= boundary[b]!.length ? [a, b] : [b, a];
    const wasActive = { keep: active[keep]!, drop: active[drop]! };
    parent[drop] = keep;
    offset[drop] = accumulated[drop]! - accumulated[keep]!;
    budget[keep] = budget[keep]! + budget[drop]!;
    activeCount -= wasActive.keep + wasActive.drop;
    active[drop] = 0;
    active[keep] = budget[keep]! > epsilon ? 1 : 0;
    activeCount += active[keep]!;
    // Edges now inside the cluster are dropped on the way: boundaries only hold crossing edges, so
    // re-queuing one stays proportional to what can still become tight.
    const crossing = (edge: number) => find(g.from[edge]!) !== find(g.to[edge]!);
    const moved = boundary[drop]!.filter(crossing);
    boundary[drop] = [];
    if (active[keep] && !wasActive.keep) boundary[keep] = boundary[keep]!.filter(crossing);
    const kept = boundary[keep]!;
    if (active[keep]) {
      deactivateAt[keep] = now + budget[keep]!;
      heap.push(deactivateAt[keep]!, -(keep + 1));
      // Edges of a side that was idle start moving again: their old events (if any) are too late.
      if (!wasActive.keep) for (const edge of kept) schedule(edge);
      if (!wasActive.drop) for (const edge of moved) schedule(edge);
    }
    for (const edge of moved) kept.push(edge);
  }
  return forest;
}

/**
 * Strong pruning: in each tree of the forest, the subtree of greatest net value (prizes minus costs)
 * found by dynamic programming (the subtree hanging from each node); the best over all trees.
 */
function strongPrune(g: WorkGraph, forest: readonly number[]): { nodes: number[]; edges: number[] } {
  const adjacency = new Map<number, { node: number; edge: number }[]>();
  const link = (u: number, v: number, e: number) => {
    (adjacency.get(u) ?? adjacency.set(u, []).get(u)!).push({ node: v, edge: e });
  };
  for (const e of forest) {
    link(g.from[e]!, g.to[e]!, e);
    link(g.to[e]!, g.from[e]!, e);
  }
  const seen = new Uint8Array(g.nodes);
  let best = { value: 0, root: -1 };
  const down = new Float64Array(g.nodes);
  for (let start = 0; start < g.nodes; start++) {
    if (seen[start]) continue;
    // Iterative DFS order of this tree (recursion would overflow on long paths).
    const order: number[] = [];
    const parentOf = new Map<number, { node: number; edge: number }>();
    const stack = [start];
    seen[start] = 1;
    while (stack.length > 0) {
      const v = stack.pop()!;
      order.push(v);
      for (const next of adjacency.get(v) ?? []) {
        if (seen[next.node]) continue;
        seen[next.node] = 1;
        parentOf.set(next.node, { node: v, edge: next.edge });
        stack.push(next.node);
      }
    }
    for (let i = order.length - 1; i >= 0; i--) {
      const v = order[i]!;
      down[v] = g.prizes[v]!;
      for (const next of adjacency.get(v) ?? []) {
        if (parentOf.get(v)?.node === next.node) continue;
        down[v]! += Math.max(0, down[next.node]! - g.cost[next.edge]!);
      }
    }
    // The best subtree of a tree has a topmost node r (in this DFS order), and its best value is down(r).
    for (const v of order) {
      if (down[v]! > best.value + epsilon || (best.root < 0 && down[v]! > epsilon)) {
        best = { value: down[v]!, root: v };
      }
    }
  }
  if (best.root < 0) return { nodes: [], edges: [] };
  // Rebuild the best subtree from its root: a child is kept when its subtree pays for its edge.
  const order: { node: number; via?: { node: number; edge: number } }[] = [];
  const visited = new Set<number>([best.root]);
  const stack: { node: number; via?: { node: number; edge: number } }[] = [{ node: best.root }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    order.push(item);
    for (const next of adjacency.get(item.node) ?? []) {
      if (visited.has(next.node)) continue;
      visited.add(next.node);
      stack.push({ node: next.node, via: { node: item.node, edge: next.edge } });
    }
  }
  const value = new Map<number, number>();
  for (let i = order.length - 1; i >= 0; i--) {
    const { node } = order[i]!;
    let sum = g.prizes[node]!;
    for (const next of adjacency.get(node) ?? []) {
      if (order[i]!.via?.node === next.node) continue;
      sum += Math.max(0, (value.get(next.node) ?? 0) - g.cost[next.edge]!);
    }
    value.set(node, sum);
  }
  const keptNodes: number[] = [];
  const keptEdges: number[] = [];
  const kept = new Set<number>();
  for (const { node, via } of order) {
    if (via) {
      if (!kept.has(via.node) || (value.get(node) ?? 0) - g.cost[via.edge]! <= epsilon) continue;
      keptEdges.push(via.edge);
    }
    kept.add(node);
    keptNodes.push(node);
  }
  return { nodes: keptNodes, edges: keptEdges };
}

/**
 * A prize-collecting Steiner tree: a connected, acyclic subgraph that (approximately) maximises the
 * prizes of its nodes and edges minus the costs of its edges — G-Retriever's retrieval subgraph.
 * Goemans–Williamson growth with strong pruning (the scheme of pcst_fast, unrooted, one tree):
 * within a factor 2 of the optimum in the penalty form (edge costs plus the prizes left out), and
 * exact on trees. Near-linear: O((V + E) log(V + E)) events for typical graphs.
 */
export function prizeCollectingSteinerTree(graph: PcstGraph): PcstTree {
  if (graph.costs.length < graph.edges.length)
    throw new RangeError(`${graph.edges.length} edges but ${graph.costs.length} costs`);
  for (const [u, v] of graph.edges) {
    if (!(u >= 0 && u < graph.nodeCount && v >= 0 && v < graph.nodeCount))
      throw new RangeError(`edge (${u}, ${v}) names a node outside 0…${graph.nodeCount - 1}`);
  }
  const g = workGraph(graph);
  const pruned = strongPrune(g, growForest(g));
  // Back to the input's terms: virtual nodes stand for their edge, and both halves for one edge.
  const nodes = new Set<number>();
  const edges = new Set<number>();
  const halves = new Map<number, number>();
  for (const v of pruned.nodes) if (v < graph.nodeCount) nodes.add(v);
  for (const e of pruned.edges) {
    const original = g.origin[e]!;
    if (g.from[e]! < graph.nodeCount && g.to[e]! < graph.nodeCount) edges.add(original);
    else halves.set(original, (halves.get(original) ?? 0) + 1);
  }
  for (const [original, count] of halves) {
    const [u, v] = graph.edges[original]!;
    if (count === 2) edges.add(original);
    else if (!nodes.has(u) || !nodes.has(v)) {
      // One half kept: the edge's surplus was worth taking; its far end comes with it.
      edges.add(original);
      nodes.add(u);
      nodes.add(v);
    }
  }
  // A virtual node kept alone (no half) stands for its edge with both ends.
  if (nodes.size === 0 && pruned.nodes.length > 0) {
    const v = pruned.nodes[0]!;
    const e = g.origin[g.from.findIndex((_, i) => g.from[i] === v || g.to[i] === v)]!;
    const [a, b] = graph.edges[e]!;
    nodes.add(a);
    nodes.add(b);
    edges.add(e);
  }
  return treeOf(graph, nodes, edges);
}

function treeOf(graph: PcstGraph, nodes: Set<number>, edges: Set<number>): PcstTree {
  const sortedNodes = [...nodes].sort((a, b) => a - b);
  const sortedEdges = [...edges].sort((a, b) => a - b);
  return { nodes: sortedNodes, edges: sortedEdges, value: treeValue(graph, sortedNodes, sortedEdges) };
}

/** Node prizes + edge prizes − edge costs of a set of nodes and edges (no check that it is a tree). */
export function treeValue(graph: PcstGraph, nodes: readonly number[], edges: readonly number[]): number {
  let value = 0;
  for (const v of nodes) value += Math.max(0, graph.prizes[v] ?? 0);
  for (const e of edges) value += (graph.edgePrizes?.[e] ?? 0) - (graph.costs[e] ?? 0);
  return value;
}
