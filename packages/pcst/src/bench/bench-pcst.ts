/**
 * Speed of `prizeCollectingSteinerTree` on neighbourhoods shaped like WordNet's (117,659 nodes,
 * 186,325 edges: mean degree 3.2, a few hubs): what MixRAG's subgraph expert hands it is the one-
 * and two-hop neighbourhood of a query's top nodes, a few hundred to a few tens of thousands of
 * nodes, with prizes on the top-k nodes and edges by rank and one cost per edge.
 * Run: `pnpm bench` in packages/pcst. Prints figures; asserts nothing.
 */
import { type PcstGraph, prizeCollectingSteinerTree } from '../prize-collecting-steiner-tree.ts';

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

/** A WordNet-like neighbourhood: a random tree (hypernymy) plus 60% more edges, attached preferentially (hubs). */
function neighbourhood(nodes: number, seed: number, topK: number): PcstGraph {
  const next = random(seed);
  const edges: [number, number][] = [];
  const ends: number[] = [0];
  for (let v = 1; v < nodes; v++) {
    const u = next() < 0.5 ? ends[Math.floor(next() * ends.length)]! : Math.floor(next() * v);
    edges.push([u, v]);
    ends.push(u, v);
  }
  const extra = Math.round(nodes * 0.6);
  for (let i = 0; i < extra; i++) {
    const u = ends[Math.floor(next() * ends.length)]!;
    const v = Math.floor(next() * nodes);
    if (u !== v) edges.push([u, v]);
  }
  const prizes = new Float64Array(nodes);
  const ranked = Array.from({ length: topK }, () => Math.floor(next() * nodes));
  ranked.forEach((v, rank) => {
    prizes[v] = Math.max(prizes[v]!, topK - rank);
  });
  const edgePrizes = new Float64Array(edges.length);
  for (let rank = 0; rank < topK; rank++) {
    const e = Math.floor(next() * edges.length);
    edgePrizes[e] = Math.max(edgePrizes[e]!, topK - rank);
  }
  return { nodeCount: nodes, prizes, edges, costs: new Float64Array(edges.length).fill(0.5), edgePrizes };
}

const quantile = (sorted: readonly number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

console.log(
  'prizeCollectingSteinerTree on WordNet-shaped neighbourhoods (cost 0.5 per edge, prizes k…1 on the top-k nodes and edges)',
);
console.log('nodes    edges    top-k   runs   p50 ms   p95 ms   tree nodes (p50)');
for (const [nodes, topK] of [
  [500, 10],
  [2_000, 20],
  [10_000, 20],
  [50_000, 50],
  [117_659, 50],
] as const) {
  const runs = nodes > 20_000 ? 5 : 20;
  const times: number[] = [];
  const sizes: number[] = [];
  let edges = 0;
  prizeCollectingSteinerTree(neighbourhood(nodes, 999, topK));
  for (let run = 0; run < runs; run++) {
    const graph = neighbourhood(nodes, run + 1, topK);
    edges = graph.edges.length;
    const started = performance.now();
    const tree = prizeCollectingSteinerTree(graph);
    times.push(performance.now() - started);
    sizes.push(tree.nodes.length);
  }
  times.sort((a, b) => a - b);
  sizes.sort((a, b) => a - b);
  console.log(
    `${String(nodes).padEnd(9)}${String(edges).padEnd(9)}${String(topK).padEnd(8)}${String(runs).padEnd(7)}${quantile(times, 0.5).toFixed(1).padStart(6)}   ${quantile(times, 0.95).toFixed(1).padStart(6)}   ${quantile(sizes, 0.5)}`,
  );
}
