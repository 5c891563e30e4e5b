import type { Candidate, Plan } from '@weft/spec';

/** Small, JSON-safe summaries for traces: enough to explain, never the whole payload. */
export function summarizeCandidates(candidates: readonly Candidate[]) {
  return {
    count: candidates.length,
    top: candidates.slice(0, 5).map((candidate) => ({ id: candidate.id, score: candidate.score })),
  };
}

export function summarizePlan(plan: Plan) {
  return {
    targetTypes: plan.targetTypes.slice(0, 3).map((entry) => entry.type),
    anchors: plan.anchors.map((anchor) => ({ mention: anchor.mention, top: anchor.candidates[0]?.id })),
    paths: plan.paths.length,
    triplets: plan.triplets.length,
    restriction: plan.restriction,
    confidence: plan.confidence,
  };
}
