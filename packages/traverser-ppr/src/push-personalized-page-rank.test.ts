import { describe, expect, it } from 'vitest';
import { pushPersonalizedPageRank, type WalkNeighbor } from './push-personalized-page-rank.ts';

/** An undirected graph as adjacency lists, served like `doNeighbors`, counting the calls. */
function graphOf(edges: readonly (readonly [string, string])[]) {
  const adjacency = new Map<string, WalkNeighbor[]>();
  const add = (a: string, b: string, direction: 'in' | 'out') =>
    (adjacency.get(a) ?? adjacency.set(a, []).get(a)!).push({
      node: b,
      nodeType: 'n',
      edgeType: 'e',
      direction,
    });
  for (const [a, b] of edges) {
    add(a, b, 'out');
    add(b, a, 'in');
  }
  const calls: string[][] = [];
  return {
    adjacency,
    calls,
    neighbors: async (nodes: readonly string[]) => {
      calls.push([...nodes]);
      return new Map(nodes.map((n) => [n, adjacency.get(n) ?? []]));
    },
  };
}

/** PPR by power iteration, to convergence: the exact figures the push must approach. */
function powerIteration(
  adjacency: ReadonlyMap<string, readonly WalkNeighbor[]>,
  seeds: ReadonlyMap<string, number>,
  alpha: number,
) {
  const nodes = new Set([...adjacency.keys(), ...seeds.keys()]);
  let p = new Map([...nodes].map((n) => [n, seeds.get(n) ?? 0]));
  for (let i = 0; i < 2000; i++) {
    const next = new Map([...nodes].map((n) => [n, alpha * (seeds.get(n) ?? 0)]));
    for (const [n, mass] of p) {
      const list = adjacency.get(n) ?? [];
      if (list.length === 0) {
        // A node without neighbours restarts the walk, as the push treats it (mass kept as rank).
        for (const [s, w] of seeds) next.set(s, next.get(s)! + (1 - alpha) * mass * w);
        continue;
      }
      for (const nb of list) next.set(nb.node, next.get(nb.node)! + ((1 - alpha) * mass) / list.length);
    }
    p = next;
  }
  return p;
}

/** A seeded random connected graph. */
function randomEdges(seed: number, nodes: number, extra: number): [string, string][] {
  let a = seed;
  const next = () => {
    a = (a * 1103515245 + 12345) % 2147483648;
    return a / 2147483648;
  };
  const edges: [string, string][] = [];
  for (let v = 1; v < nodes; v++) edges.push([`n${Math.floor(next() * v)}`, `n${v}`]);
  for (let i = 0; i < extra; i++) {
    const u = Math.floor(next() * nodes);
    const v = Math.floor(next() * nodes);
    if (u !== v) edges.push([`n${u}`, `n${v}`]);
  }
  return edges;
}

describe('pushPersonalizedPageRank', () => {
  it('approaches power-iteration PPR within the residual bound on random graphs', async () => {
    for (let seed = 1; seed <= 20; seed++) {
      const graph = graphOf(randomEdges(seed, 40, 30));
      const seeds = new Map([
        ['n0', 2],
        [`n${seed % 40}`, 1],
      ]);
      const total = 3;
      const normalised = new Map([...seeds].map(([k, v]) => [k, v / total]));
      // Both seeds may coincide (seed 40 … never here, but keep the sums right).
      if (seeds.size === 1) normalised.set('n0', 1);
      const alpha = 0.2;
      const epsilon = 1e-6;
      const result = await pushPersonalizedPageRank({ seeds, neighbors: graph.neighbors, alpha, epsilon });
      expect(result.stopped).toBe('converged');
      const exact = powerIteration(graph.adjacency, normalised, alpha);
      for (const [node, value] of exact) {
        const estimate = result.rank.get(node) ?? 0;
        // Push never overshoots, and misses at most the residual left (≤ ε × degree per node, summed).
        expect(estimate).toBeLessThanOrEqual(value + 1e-9);
        expect(value - estimate).toBeLessThanOrEqual(result.residual + 1e-9);
      }
      const sum = [...result.rank.values()].reduce((s, v) => s + v, 0);
      expect(sum + result.residual).toBeCloseTo(1, 9);
    }
  });

  it('ranks by closeness to the seed and records the strongest step into each node', async () => {
    // a — b — c — d, and e hanging off b: mass decays with distance from a.
    const graph = graphOf([
      ['a', 'b'],
      ['b', 'c'],
      ['c', 'd'],
      ['b', 'e'],
    ]);
    const result = await pushPersonalizedPageRank({ seeds: new Map([['a', 1]]), neighbors: graph.neighbors });
    const r = (n: string) => result.rank.get(n) ?? 0;
    expect(r('a')).toBeGreaterThan(r('c'));
    expect(r('b')).toBeGreaterThan(r('c'));
    expect(r('c')).toBeGreaterThan(r('d'));
    expect(result.strongest.get('d')).toMatchObject({ from: 'c', edgeType: 'e', direction: 'out' });
    expect(result.strongest.get('b')?.from).toBe('a');
  });

  it('bounds the work on a hub: few pushes and one neighbour call per wave', async () => {
    // A star of 5,000 leaves around a hub, seeded at one leaf: the hub's residual never exceeds
    // ε × 5,000, so it is loaded but never pushed, and the walk stops at once.
    const edges = Array.from({ length: 5000 }, (_, i) => ['hub', `leaf${i}`] as const);
    const graph = graphOf(edges);
    const result = await pushPersonalizedPageRank({
      seeds: new Map([['leaf1', 1]]),
      neighbors: graph.neighbors,
      epsilon: 1e-3,
    });
    expect(result.stopped).toBe('converged');
    expect(result.pushes).toBeLessThan(10);
    expect(result.rank.has('leaf2')).toBe(false);
    expect(graph.calls.length).toBe(result.waves > 0 ? graph.calls.length : 0);
    expect(graph.calls.length).toBeLessThanOrEqual(result.waves);
    // A hard bound on pushes stops the walk and says so.
    const bounded = await pushPersonalizedPageRank({
      seeds: new Map([['hub', 1]]),
      neighbors: graph.neighbors,
      epsilon: 1e-9,
      maxPushes: 50,
    });
    expect(bounded.stopped).toBe('max-pushes');
    expect(bounded.pushes).toBe(50);
  });

  it('gives nothing without seeds and rejects a restart probability outside (0, 1)', async () => {
    const graph = graphOf([['a', 'b']]);
    const none = await pushPersonalizedPageRank({ seeds: new Map([['a', 0]]), neighbors: graph.neighbors });
    expect(none.rank.size).toBe(0);
    await expect(
      pushPersonalizedPageRank({ seeds: new Map([['a', 1]]), neighbors: graph.neighbors, alpha: 1 }),
    ).rejects.toThrow(RangeError);
  });
});
