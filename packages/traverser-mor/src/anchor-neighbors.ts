import type { Candidate, Plan, RetrievalContext, TrajectoryHop } from '@weft/spec';
import type { AnchorStarts } from './follow-paths.ts';
import { signalOf } from './signal-of.ts';

/**
 * Structural support that does not depend on the predicted relation: a candidate one hop from any
 * anchor of the plan, by whatever edge, gets that anchor's weight as `anchorNeighbor` (and the
 * number of such anchors as `anchorNeighbors`); a text-only candidate gains the trajectory from
 * the anchor. This recovers answers whose relation the planner got wrong but whose anchor it
 * found. One batched neighbour call over the candidates; `candidates` is updated in place.
 */
export async function markAnchorNeighbors(
  plan: Plan,
  context: RetrievalContext,
  candidates: Candidate[],
  startsOf: AnchorStarts,
  neighborsPerSeed: number,
): Promise<void> {
  const anchorOf = new Map<string, { anchor: number; weight: number; type: string | undefined }>();
  for (const [a, starts] of startsOf) {
    const confidence = plan.anchors[a]?.confidence ?? 0;
    for (const [id, start] of starts) {
      const weight = confidence * start.share;
      if ((anchorOf.get(id)?.weight ?? -1) < weight)
        anchorOf.set(id, { anchor: a, weight, type: start.type });
    }
  }
  if (anchorOf.size === 0 || candidates.length === 0) return;
  const seeds = candidates.map((c) => c.id).filter((id) => !anchorOf.has(id));
  const neighbors = await context.graph.doNeighbors({
    seeds,
    direction: 'both',
    limitPerSeed: neighborsPerSeed,
    ...signalOf(context),
  });
  const support = new Map<string, { weight: number; anchors: Set<number>; hop: TrajectoryHop[] }>();
  for (const n of neighbors) {
    const anchor = anchorOf.get(n.node);
    if (!anchor) continue;
    const entry = support.get(n.seed) ?? { weight: 0, anchors: new Set<number>(), hop: [] };
    entry.anchors.add(anchor.anchor);
    if (anchor.weight > entry.weight) {
      entry.weight = anchor.weight;
      // Seen from the anchor, the edge runs the other way.
      entry.hop = [
        { node: n.node, ...(anchor.type ? { nodeType: anchor.type } : {}), via: 'anchor' },
        {
          node: n.seed,
          edgeType: n.edgeType,
          direction: n.direction === 'out' ? 'in' : n.direction === 'in' ? 'out' : n.direction,
          via: 'structure',
        },
      ];
    }
    support.set(n.seed, entry);
  }
  for (const [i, candidate] of candidates.entries()) {
    const found = support.get(candidate.id);
    if (!found) continue;
    const textOnly = !((candidate.scores.structure ?? 0) > 0);
    candidates[i] = {
      ...candidate,
      // A text match next to an anchor outranks other text matches in the fill.
      score: textOnly ? candidate.score + 0.5 * found.weight : candidate.score,
      scores: { ...candidate.scores, anchorNeighbor: found.weight, anchorNeighbors: found.anchors.size },
      trajectories: textOnly ? [...candidate.trajectories, { hops: found.hop }] : candidate.trajectories,
    };
  }
}
