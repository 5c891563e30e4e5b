import { describe, expect, it } from 'vitest';
import { type PcstGraph, prizeCollectingSteinerTree, treeValue } from './prize-collecting-steiner-tree.ts';

/** A seeded generator (mulberry32), so every random graph here is the same on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomGraph(seed: number, options: { edgePrizes?: boolean } = {}): PcstGraph {
  const next = random(seed);
  const nodeCount = 2 + Math.floor(next() * 6);
  const pairs: [number, number][] = [];
  for (let u = 0; u < nodeCount; u++) for (let v = u + 1; v < nodeCount; v++) pairs.push([u, v]);
  const density = 0.3 + next() * 0.6;
  const edges = pairs.filter(() => next() < density).slice(0, 11);
  // Integer-ish prizes and costs make ties, the case where tie-breaking bugs show.
  const prizes = Array.from({ length: nodeCount }, () => (next() < 0.3 ? 0 : Math.round(next() * 10) / 2));
  const costs = edges.map(() => Math.round(next() * 8) / 2);
  return {
    nodeCount,
    prizes,
    edges,
    costs,
    ...(options.edgePrizes
      ? { edgePrizes: edges.map(() => (next() < 0.5 ? 0 : Math.round(next() * 8) / 2)) }
      : {}),
  };
}

/** Whether `edges` form one tree spanning exactly `nodes`. */
function isTree(graph: PcstGraph, nodes: readonly number[], edges: readonly number[]): boolean {
  if (nodes.length === 0) return edges.length === 0;
  if (edges.length !== nodes.length - 1) return false;
  const inTree = new Set(nodes);
  const parent = new Map(nodes.map((v) => [v, v]));
  const find = (v: number): number => {
    while (parent.get(v) !== v) v = parent.get(v)!;
    return v;
  };
  for (const e of edges) {
    const [u, v] = graph.edges[e]!;
    if (!inTree.has(u) || !inTree.has(v)) return false;
    const a = find(u);
    const b = find(v);
    if (a === b) return false;
    parent.set(a, b);
  }
  return true;
}

/** The optimum by exhaustion: every single node, and every edge subset that is a tree. */
function bruteForce(graph: PcstGraph): number {
  let best = 0;
  for (let v = 0; v < graph.nodeCount; v++) best = Math.max(best, graph.prizes[v] ?? 0);
  const m = graph.edges.length;
  for (let mask = 1; mask < 1 << m; mask++) {
    const edges: number[] = [];
    const nodes = new Set<number>();
    for (let e = 0; e < m; e++) {
      if (!(mask & (1 << e))) continue;
      edges.push(e);
      nodes.add(graph.edges[e]![0]);
      nodes.add(graph.edges[e]![1]);
    }
    const list = [...nodes];
    if (isTree(graph, list, edges)) best = Math.max(best, treeValue(graph, list, edges));
  }
  return best;
}

const totalPrize = (graph: PcstGraph) => Array.from(graph.prizes).reduce((s, p) => s + p, 0);
/** The penalty form GW bounds: the tree's edge costs plus the prizes it leaves out. */
const penalty = (graph: PcstGraph, value: number) => totalPrize(graph) - value;

describe('prizeCollectingSteinerTree', () => {
  it('returns a tree whose value is what it reports, never above the optimum, within GW’s factor 2', () => {
    let exact = 0;
    const graphs = 400;
    for (let seed = 1; seed <= graphs; seed++) {
      const graph = randomGraph(seed);
      const tree = prizeCollectingSteinerTree(graph);
      const optimum = bruteForce(graph);
      expect(isTree(graph, tree.nodes, tree.edges), `seed ${seed}`).toBe(true);
      expect(tree.value).toBeCloseTo(treeValue(graph, tree.nodes, tree.edges), 9);
      expect(tree.value, `seed ${seed}`).toBeLessThanOrEqual(optimum + 1e-9);
      expect(penalty(graph, tree.value), `seed ${seed}`).toBeLessThanOrEqual(
        2 * penalty(graph, optimum) + 1e-9,
      );
      if (tree.value >= optimum - 1e-9) exact++;
    }
    // The heuristic is no exact solver, but on graphs this small it almost always finds the optimum
    // (98.75% of these 400): the bound sits just below, so that a growth-phase bug that only delays
    // merges (e.g. an idle cluster's edges not re-queued when it is absorbed: 98.25%) fails here.
    expect(exact / graphs).toBeGreaterThanOrEqual(0.985);
  });

  it('handles prizes on edges: a tree, its value as reported, at most the optimum', () => {
    let exact = 0;
    const graphs = 300;
    for (let seed = 1001; seed < 1001 + graphs; seed++) {
      const graph = randomGraph(seed, { edgePrizes: true });
      const tree = prizeCollectingSteinerTree(graph);
      const optimum = bruteForce(graph);
      expect(isTree(graph, tree.nodes, tree.edges), `seed ${seed}`).toBe(true);
      expect(tree.value).toBeCloseTo(treeValue(graph, tree.nodes, tree.edges), 9);
      expect(tree.value, `seed ${seed}`).toBeLessThanOrEqual(optimum + 1e-9);
      if (tree.value >= optimum - 1e-9) exact++;
    }
    // 96.7% optimal; the same delayed-merge bug drops it to 95.3%.
    expect(exact / graphs).toBeGreaterThanOrEqual(0.96);
  });

  it('is exact on a path where only the far ends pay', () => {
    // 0 —1— 1 —1— 2 —1— 3: prizes 5 at both ends; joining them costs 3 and earns 10.
    const graph: PcstGraph = {
      nodeCount: 4,
      prizes: [5, 0, 0, 5],
      edges: [
        [0, 1],
        [1, 2],
        [2, 3],
      ],
      costs: [1, 1, 1],
    };
    expect(prizeCollectingSteinerTree(graph)).toEqual({ nodes: [0, 1, 2, 3], edges: [0, 1, 2], value: 7 });
    // Too dear to join: the best single node.
    const dear = prizeCollectingSteinerTree({ ...graph, costs: [4, 4, 4] });
    expect(dear.nodes).toHaveLength(1);
    expect(dear.value).toBe(5);
  });

  it('takes an edge whose prize pays for it, with both its ends', () => {
    const tree = prizeCollectingSteinerTree({
      nodeCount: 3,
      prizes: [0, 0, 1],
      edges: [
        [0, 1],
        [1, 2],
      ],
      costs: [1, 5],
      edgePrizes: [4, 0],
    });
    expect(tree).toEqual({ nodes: [0, 1], edges: [0], value: 3 });
  });

  it('returns nothing for a graph without prizes, and one node without edges', () => {
    expect(prizeCollectingSteinerTree({ nodeCount: 2, prizes: [0, 0], edges: [[0, 1]], costs: [1] })).toEqual(
      { nodes: [], edges: [], value: 0 },
    );
    expect(prizeCollectingSteinerTree({ nodeCount: 3, prizes: [1, 3, 2], edges: [], costs: [] })).toEqual({
      nodes: [1],
      edges: [],
      value: 3,
    });
  });

  it('rejects edges outside the graph and missing costs', () => {
    expect(() =>
      prizeCollectingSteinerTree({ nodeCount: 2, prizes: [1, 1], edges: [[0, 2]], costs: [1] }),
    ).toThrow(RangeError);
    expect(() =>
      prizeCollectingSteinerTree({ nodeCount: 2, prizes: [1, 1], edges: [[0, 1]], costs: [] }),
    ).toThrow(RangeError);
  });

  it('copes with a long path and a large star without recursion or quadratic blow-up', () => {
    const n = 20_000;
    const path = prizeCollectingSteinerTree({
      nodeCount: n,
      prizes: Array.from({ length: n }, () => 1),
      edges: Array.from({ length: n - 1 }, (_, i) => [i, i + 1] as const),
      costs: Array.from({ length: n - 1 }, () => 0.5),
    });
    expect(path.nodes).toHaveLength(n);
    expect(path.value).toBeCloseTo(n - 0.5 * (n - 1), 6);
    const star = prizeCollectingSteinerTree({
      nodeCount: n,
      prizes: Array.from({ length: n }, (_, i) => (i % 2 === 0 ? 1 : 0)),
      edges: Array.from({ length: n - 1 }, (_, i) => [0, i + 1] as const),
      costs: Array.from({ length: n - 1 }, () => 0.6),
    });
    // Leaves with prize 1 pay for their edge (0.6), those with 0 do not.
    expect(star.nodes).toHaveLength(1 + Math.floor((n - 1) / 2));
  });
});
