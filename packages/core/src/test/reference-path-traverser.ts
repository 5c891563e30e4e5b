import type { Candidate, TraverseOptions, TraverserV1, Trajectory, TrajectoryHop } from '@weft/spec';
import { searchText } from '@weft/kit';

/**
 * The reference traverser: follows every plan path from every linked anchor node, one hop at a time,
 * with no frontier limits; a candidate's score is the best product of anchor score along any path.
 * A plan without paths falls back to BM25 over the target types. Obviously correct, not fast.
 */
export class ReferencePathTraverser implements TraverserV1 {
  readonly specificationVersion = 'v1';
  readonly name = 'reference-path';

  async doTraverse({ query, plan, limit, context }: TraverseOptions): Promise<Candidate[]> {
    const found = new Map<string, { score: number; type: string; trajectories: Trajectory[] }>();
    for (const [pathIndex, path] of plan.paths.entries()) {
      const anchor = path.anchor === undefined ? undefined : plan.anchors[path.anchor];
      if (!anchor) continue;
      let frontier: { node: string; type: string; score: number; hops: TrajectoryHop[] }[] =
        anchor.candidates.map((candidate) => ({
          node: candidate.id,
          type: candidate.type,
          score: candidate.score,
          hops: [{ node: candidate.id, nodeType: candidate.type, via: 'anchor' as const }],
        }));
      for (const hop of path.hops) {
        const neighbors = await context.graph.doNeighbors({
          seeds: frontier.map((entry) => entry.node),
          edgeTypes: [hop.edgeType],
          direction: hop.direction,
          ...(hop.nodeTypes ? { nodeTypes: hop.nodeTypes } : {}),
        });
        const next: typeof frontier = [];
        for (const entry of frontier) {
          for (const neighbor of neighbors) {
            if (neighbor.seed !== entry.node) continue;
            next.push({
              node: neighbor.node,
              type: neighbor.nodeType,
              score: entry.score,
              hops: [
                ...entry.hops,
                {
                  node: neighbor.node,
                  nodeType: neighbor.nodeType,
                  edgeType: neighbor.edgeType,
                  direction: neighbor.direction,
                  via: 'structure',
                },
              ],
            });
          }
        }
        frontier = next;
      }
      for (const entry of frontier) {
        const current = found.get(entry.node) ?? { score: 0, type: entry.type, trajectories: [] };
        current.score = Math.max(current.score, entry.score);
        current.trajectories.push({ hops: entry.hops, path: pathIndex });
        found.set(entry.node, current);
      }
    }
    if (found.size === 0) {
      const types = plan.targetTypes.map((entry) => entry.type);
      const [hits = []] = await searchText(context.text, [plan.restriction || query], {
        limit,
        ...(types.length ? { filter: { nodeTypes: types } } : {}),
      });
      return hits.map((hit) => ({
        id: hit.id,
        score: hit.score,
        scores: { bm25: hit.score },
        trajectories: [{ hops: [{ node: hit.id, textScore: hit.score, via: 'text' }] }],
        source: this.name,
      }));
    }
    return [...found.entries()]
      .sort((a, b) => b[1].score - a[1].score || (a[0] < b[0] ? -1 : 1))
      .slice(0, limit)
      .map(([id, entry]) => ({
        id,
        type: entry.type,
        score: entry.score,
        scores: { traversal: entry.score },
        trajectories: entry.trajectories,
        source: this.name,
      }));
  }
}
