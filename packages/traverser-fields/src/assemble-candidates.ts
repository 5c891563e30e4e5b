import { anchorSeeds, planEndpoints, relationLabel } from '@weft/kit';
import type { Candidate, Plan, Trajectory } from '@weft/spec';
import type { Pool } from './candidate-pool.ts';
import type { FieldTraverserOptions } from './options.ts';
import { untrainedScore } from './untrained-score.ts';

/**
 * The candidates with every score (see `FieldTraverser`), their trajectories from the mentions (or
 * the text match that found them), in the untrained order, the first `limit`.
 */
export function assembleCandidates(
  plan: Plan,
  pool: Pool,
  limit: number,
  source: string,
  options: FieldTraverserOptions,
): Candidate[] {
  const typeScore = new Map(plan.targetTypes.map((t) => [t.type, t.score]));
  const named = anchorSeeds(plan);
  const pathConfidence = new Map<string, number>();
  for (const path of plan.paths) {
    const hop = path.hops[0];
    // A query-graph reading (one sense's path) speaks through `queryGraph`, not through adjacency.
    if (path.anchor === undefined || !hop || path.hops.length !== 1 || path.node !== undefined) continue;
    const key = `${path.anchor}|${relationLabel(hop.edgeType, hop.direction, 'key')}`;
    pathConfidence.set(key, Math.max(pathConfidence.get(key) ?? 0, path.confidence ?? path.score));
  }
  const gate = Math.max(0, ...plan.anchors.map((a) => a.confidence));
  // The readings' scores relative to the best (1), not their probabilities: those are spread over every
  // reading and the text-only one, and an executed reading is one the question's words confirmed
  // (everyday WordNet val Hit@1 63.3 against 40.0 with the probabilities at twice the weight). Summed
  // over anchors rather than the best: the own plans' figures are equal, the gold plans' (`--oracle
  // plan`) Pokémon hybrid train / val 56.3 / 57.9 → 62.5 / 63.2.
  const readings = new Map(planEndpoints(plan, { weight: 'score' }).map((e) => [e.id, e.score]));
  const maxOf = (m: Map<string, number>) => Math.max(0, ...m.values());
  const max = { document: maxOf(pool.document), combined: maxOf(pool.combined), dense: maxOf(pool.dense) };
  const out: Candidate[] = pool.ids.map((id) => {
    const adjacency = pool.adjacency.get(id) ?? [];
    const anchorLink = Math.max(0, ...adjacency.map((a) => a.weight));
    const relationMatch = Math.max(
      0,
      ...adjacency.map(
        (a) =>
          a.weight *
          (pathConfidence.get(`${a.anchor}|${relationLabel(a.edgeType, a.direction, 'key')}`) ?? 0),
      ),
    );
    const type = pool.types.get(id);
    const scores: Record<string, number> = {
      bm25: pool.document.get(id) ?? 0,
      bm25Relations: pool.combined.get(id) ?? 0,
      ...(pool.dense.size > 0 ? { dense: pool.dense.get(id) ?? 0 } : {}),
      ...(options.describedK !== 0 ? { neighbourText: pool.neighbourText.get(id) ?? 0 } : {}),
      anchorLink,
      anchorSelf: named.get(id) ?? 0,
      ...(type !== undefined && typeScore.size > 0 ? { targetType: typeScore.get(type) ?? 0 } : {}),
      ...(plan.paths.length > 0 ? { relationMatch } : {}),
      ...(readings.size > 0 ? { queryGraph: readings.get(id) ?? 0 } : {}),
    };
    const trajectories: Trajectory[] = adjacency.slice(0, 3).map((a) => ({
      hops: [
        { node: a.node, nodeType: a.nodeType, via: 'anchor' as const, textScore: a.weight },
        {
          node: id,
          ...(type !== undefined ? { nodeType: type } : {}),
          edgeType: a.edgeType,
          direction: a.direction,
          via: 'structure' as const,
        },
      ],
    }));
    if (trajectories.length === 0) {
      trajectories.push({
        hops: [
          {
            node: id,
            ...(type !== undefined ? { nodeType: type } : {}),
            via: pool.document.has(id) || pool.combined.has(id) ? ('text' as const) : ('vector' as const),
            textScore: scores.bm25!,
          },
        ],
      });
    }
    return {
      id,
      ...(type !== undefined ? { type } : {}),
      score: untrainedScore(scores, max, gate),
      scores,
      trajectories,
      source,
    };
  });
  out.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
  return out.slice(0, limit);
}
