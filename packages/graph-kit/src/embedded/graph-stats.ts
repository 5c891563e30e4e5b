import type { GraphStats } from '@weft/spec';
import type { ConnectionPool } from './connection-pool.ts';

/**
 * Counts of nodes and edges per type and the degree distribution of a Weft graph in a Kùzu-API engine.
 * Degrees come back from the engine as a histogram (degree → how many nodes), so 1M nodes stay cheap in memory.
 */
export async function embeddedGraphStats(pool: ConnectionPool): Promise<GraphStats> {
  const nodesByType: Record<string, number> = {};
  const edgesByType: Record<string, number> = {};
  for (const row of await pool.query(
    'MATCH (n:Node) RETURN n.type AS type, count(*) AS count ORDER BY type',
    {},
  )) {
    nodesByType[row.type as string] = Number(row.count);
  }
  for (const row of await pool.query(
    'MATCH ()-[e:Edge]->() RETURN e.type AS type, count(*) AS count ORDER BY type',
    {},
  )) {
    edgesByType[row.type as string] = Number(row.count);
  }
  // Degree = out + in edges (a self-loop counts twice).
  const histogram = await pool.query(
    'MATCH (n:Node) OPTIONAL MATCH (n)-[o:Edge]->() WITH n, count(o) AS outDegree OPTIONAL MATCH (n)<-[i:Edge]-() WITH n, outDegree, count(i) AS inDegree WITH outDegree + inDegree AS degree RETURN degree, count(*) AS count ORDER BY degree',
    {},
  );
  const nodes = Object.values(nodesByType).reduce((s, c) => s + c, 0);
  const edges = Object.values(edgesByType).reduce((s, c) => s + c, 0);
  return { nodes, edges, nodesByType, edgesByType, degree: degreeSummary(histogram, nodes) };
}

/** Mean, max and quantiles of a degree histogram (rows of `degree`, `count`, ordered by degree). */
export function degreeSummary(
  histogram: readonly Record<string, unknown>[],
  nodes: number,
): GraphStats['degree'] {
  const at = (q: number) => {
    const rank = Math.min(nodes - 1, Math.floor(q * nodes));
    let seen = 0;
    for (const row of histogram) {
      seen += Number(row.count);
      if (seen > rank) return Number(row.degree);
    }
    return 0;
  };
  let sum = 0;
  for (const row of histogram) sum += Number(row.degree) * Number(row.count);
  return {
    mean: nodes ? sum / nodes : 0,
    max: nodes ? at(1) : 0,
    p50: nodes ? at(0.5) : 0,
    p95: nodes ? at(0.95) : 0,
  };
}
