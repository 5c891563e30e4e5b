import type { Candidate, Plan } from '@weft/spec';

/**
 * Query-level features for the route gate (HybGRAG's router, offline): how sure the plan is, and
 * whether the structure and the text agree. The gate decides per query whether the trajectory
 * ranking or the plain text ranking is more likely to put an answer first.
 */
export const gateFeatures = [
  'planConfidence',
  'pathConfidence',
  'anchors',
  'quotedAnchor',
  'structuralText',
  'trajectoryMargin',
  'textMargin',
  'structuralShare',
  'queryWords',
  'anchorLink',
  'restrictionShare',
] as const;

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** The text ranking of the candidates: BM25, then dense similarity, then input order. */
export function textOrder(candidates: readonly Candidate[]): number[] {
  return candidates
    .map((c, i) => ({ i, bm25: c.scores.bm25 ?? 0, dense: c.scores.dense ?? 0 }))
    .sort((a, b) => b.bm25 - a.bm25 || b.dense - a.dense || a.i - b.i)
    .map((e) => e.i);
}

/**
 * The trajectory ranking: by score, and with `structureFirst` the candidates a planned path reached
 * before the text-only ones (when the plan is trusted, a strong text match that no path reached is
 * usually another sense of an anchor, not an answer).
 */
export function trajectoryOrder(
  candidates: readonly Candidate[],
  scores: readonly number[],
  structureFirst: boolean,
): number[] {
  const tier = (c: Candidate) => (structureFirst && (c.scores.structure ?? 0) > 0 ? 0 : 1);
  return candidates
    .map((c, i) => ({ i, tier: tier(c), score: scores[i]! }))
    .sort((a, b) => a.tier - b.tier || b.score - a.score || a.i - b.i)
    .map((e) => e.i);
}

/** How the gate's probability is used: pick one ranking, or mix their ranks by it. */
export type RouteMode = 'switch' | 'blend';

/**
 * The final order of the candidates. Without a gate probability: the trajectory order. `switch`:
 * the text order when P(trajectory wins) < 0.5. `blend`: a reciprocal-rank mix of both orders
 * weighted by that probability, so an uncertain gate keeps the top of both lists near the top.
 */
export function routedOrder(
  candidates: readonly Candidate[],
  scores: readonly number[],
  structureFirst: boolean,
  route: number | undefined,
  mode: RouteMode,
): number[] {
  const byTrajectory = trajectoryOrder(candidates, scores, structureFirst);
  if (route === undefined) return byTrajectory;
  const byText = textOrder(candidates);
  if (mode === 'switch') return route < 0.5 ? byText : byTrajectory;
  const k = 5;
  const mixed = new Array<number>(candidates.length).fill(0);
  byTrajectory.forEach((i, r) => {
    mixed[i]! += route / (k + r);
  });
  byText.forEach((i, r) => {
    mixed[i]! += (1 - route) / (k + r);
  });
  const position = new Map(byTrajectory.map((i, r) => [i, r]));
  return [...byTrajectory].sort((a, b) => mixed[b]! - mixed[a]! || position.get(a)! - position.get(b)!);
}

/** One row of gate features; `scores` are the trajectory scores of the candidates. */
export function gateRow(
  query: string,
  plan: Plan,
  candidates: readonly Candidate[],
  scores: readonly number[],
): number[] {
  const best = plan.paths[0];
  const anchor = best?.anchor === undefined ? undefined : plan.anchors[best.anchor];
  const quoted =
    anchor !== undefined &&
    [`'${anchor.mention}'`, `"${anchor.mention}"`, `‘${anchor.mention}’`, `“${anchor.mention}”`].some((q) =>
      query.includes(q),
    );
  const structural = candidates.filter((c) => (c.scores.structure ?? 0) > 0);
  const sortedScores = scores.filter(Number.isFinite).sort((a, b) => b - a);
  const bm25 = candidates.map((c) => c.scores.bm25 ?? 0).sort((a, b) => b - a);
  const queryWords = words(query).length;
  return [
    plan.confidence ?? 0,
    best?.confidence ?? best?.score ?? 0,
    Math.log(1 + plan.anchors.length),
    quoted ? 1 : 0,
    Math.max(0, ...structural.map((c) => c.scores.bm25Global ?? 0)),
    sortedScores.length > 1 ? Math.tanh(sortedScores[0]! - sortedScores[1]!) : 0,
    bm25[0] ? (bm25[0] - (bm25[1] ?? 0)) / bm25[0] : 0,
    candidates.length > 0 ? structural.length / candidates.length : 0,
    Math.log(1 + queryWords),
    anchor?.candidates[0]?.score ?? 0,
    queryWords > 0 ? words(plan.restriction).length / queryWords : 0,
  ];
}
