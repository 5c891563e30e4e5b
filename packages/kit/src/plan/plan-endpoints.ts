import type { Plan } from '@weft/spec';
import type { Relation } from '../text/relation-label.ts';

/** A node the plan's executed query-graph readings reach. */
export interface PlanEndpoint {
  readonly id: string;
  /** Per anchor the weight of its best reading that reaches the node, summed over the anchors. */
  readonly score: number;
  /** Its best position in a reading's endpoint list (the order the question's remaining words gave). */
  readonly rank: number;
  /** The hop of its best reading: from the reading's node, by this edge type and direction. */
  readonly via?: Relation & { readonly node: string };
}

export interface PlanEndpointsOptions {
  /**
   * A reading's weight: `confidence`, its probability among the question's readings (default), or
   * `score`, its score relative to the plan's best reading (1), which a feature needs when the
   * probabilities are spread over many readings and the text-only one.
   */
  readonly weight?: 'confidence' | 'score';
}

/**
 * The endpoints of the plan's executed readings (paths with `endpoints`), best first: per anchor the
 * weight of its best reading that reaches the node, summed over the anchors, so that a node the
 * readings of two anchors reach (their intersection) comes first; ties in the readings' own order,
 * then by id. No executed reading: none.
 */
export function planEndpoints(plan: Plan, options: PlanEndpointsOptions = {}): PlanEndpoint[] {
  const byAnchor = new Map<string, Map<number, number>>();
  const position = new Map<string, number>();
  const via = new Map<string, NonNullable<PlanEndpoint['via']>>();
  for (const path of plan.paths) {
    if (!path.endpoints) continue;
    const weight = options.weight === 'score' ? path.score : (path.confidence ?? path.score);
    const anchor = path.anchor ?? -1;
    const hop = path.hops[0];
    path.endpoints.forEach((id, rank) => {
      const best = byAnchor.get(id) ?? byAnchor.set(id, new Map()).get(id)!;
      if (weight > (best.get(anchor) ?? 0)) {
        best.set(anchor, weight);
        if (hop && path.node !== undefined)
          via.set(id, { node: path.node, edgeType: hop.edgeType, direction: hop.direction });
      }
      position.set(id, Math.min(position.get(id) ?? rank, rank));
    });
  }
  const endpoints = [...byAnchor].map(([id, best]): PlanEndpoint => {
    const hop = via.get(id);
    return {
      id,
      score: [...best.values()].reduce((a, b) => a + b, 0),
      rank: position.get(id)!,
      ...(hop ? { via: hop } : {}),
    };
  });
  return endpoints.sort((a, b) => b.score - a.score || a.rank - b.rank || a.id.localeCompare(b.id));
}
