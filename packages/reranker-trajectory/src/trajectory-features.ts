import type { Candidate } from '@weft/spec';

/** Features of a candidate, read from its component scores and the trajectories that found it. */
export const trajectoryFeatures = [
  'structure',
  'pathScore',
  'link',
  'bm25InSet',
  'bm25Restriction',
  'bm25Global',
  'textRank',
  'dense',
  'paths',
  'anchors',
  'setSize',
  'hops',
  'targetType',
  'viaStructure',
  'textOnly',
  'trajectories',
  'inputRank',
  'structureShare',
  'bestPath',
  'denseInSet',
  'textOnlyConfident',
  'structureText',
  'structureDense',
  'structureRestriction',
  'confidentStructure',
  'pathConfidence',
  'pathConfidenceText',
  'anchorNeighbor',
  'anchorNeighbors',
  'anchorNeighborText',
] as const;

/** One row of features per candidate, in `trajectoryFeatures` order. */
export function featureRows(candidates: readonly Candidate[]): number[][] {
  const byText = candidates
    .map((c, i) => ({ i, bm25: c.scores.bm25Global ?? c.scores.bm25 ?? 0 }))
    .sort((a, b) => b.bm25 - a.bm25);
  const textRank = new Map(byText.map((e, rank) => [e.i, rank]));
  return candidates.map((candidate, i) => {
    const s = candidate.scores;
    const viaStructure = candidate.trajectories.some((t) => t.hops.some((h) => h.via === 'structure'));
    const setSize = s.setSize !== undefined && Number.isFinite(s.setSize) ? Math.log(1 + s.setSize) : 0;
    return [
      s.structure ?? 0,
      s.pathScore ?? 0,
      s.link ?? 0,
      s.bm25InSet ?? 0,
      s.bm25Restriction ?? 0,
      s.bm25Global ?? 0,
      Math.log(1 + (textRank.get(i) ?? candidates.length)),
      s.dense ?? 0,
      s.paths ?? 0,
      s.anchors ?? 0,
      setSize,
      s.hops !== undefined && Number.isFinite(s.hops) ? s.hops : 0,
      s.targetType ?? 0,
      viaStructure ? 1 : 0,
      viaStructure ? 0 : 1,
      Math.log(1 + candidate.trajectories.length),
      Math.log(1 + i),
      s.structureShare ?? 0,
      s.bestPath ?? 0,
      s.denseInSet ?? 0,
      // Text-only candidates are worth less when the plan is confident about its structure.
      viaStructure ? 0 : (s.planConfidence ?? 0),
      // Interactions a linear model cannot form itself: structure counts when the text agrees, and
      // when the plan is sure of it.
      (s.structureShare ?? 0) * (s.bm25Global ?? 0),
      (s.structureShare ?? 0) * Math.max(0, s.dense ?? 0),
      (s.structureShare ?? 0) * (s.bm25Restriction ?? 0),
      (s.structureShare ?? 0) * (s.planConfidence ?? 0),
      s.pathConfidence ?? 0,
      (s.pathConfidence ?? 0) * (s.bm25Global ?? 0),
      s.anchorNeighbor ?? 0,
      s.anchorNeighbors ?? 0,
      (s.anchorNeighbor ?? 0) * (s.bm25Global ?? 0),
    ];
  });
}
