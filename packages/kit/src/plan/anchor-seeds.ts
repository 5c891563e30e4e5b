import type { Plan } from '@weft/spec';

export interface AnchorSeedsOptions {
  /** Anchors less sure than this (a mention's specificity) name no seed (default: every anchor). */
  readonly minConfidence?: number;
  /** Candidates taken from each anchor, its first (default: all). */
  readonly perAnchor?: number;
  /** Leave out a node whose weight is not positive (default false: it joins with weight 0). */
  readonly positiveOnly?: boolean;
}

/**
 * The nodes a plan's anchors name, each weighted by the anchor's confidence × the node's link score,
 * the best over the anchors that name it: the seeds of a walk, a neighbourhood or a named-node score.
 */
export function anchorSeeds(plan: Plan, options: AnchorSeedsOptions = {}): Map<string, number> {
  const seeds = new Map<string, number>();
  for (const anchor of plan.anchors) {
    if (options.minConfidence !== undefined && anchor.confidence < options.minConfidence) continue;
    for (const node of anchor.candidates.slice(0, options.perAnchor)) {
      const weight = anchor.confidence * node.score;
      if (options.positiveOnly && !(weight > 0)) continue;
      seeds.set(node.id, Math.max(seeds.get(node.id) ?? 0, weight));
    }
  }
  return seeds;
}
