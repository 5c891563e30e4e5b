import type { Candidate, HopVia, Plan } from '@weft/spec';
import type { PathEntry } from './path-evidence.ts';
import type { TextEvidence } from './text-evidence.ts';

/**
 * Candidates of the structural set. Structure decides the tier (`1 + evidence`), text and dense
 * order the candidates inside it, weighted by the node's share of the best evidence.
 */
export function structuralCandidates(
  plan: Plan,
  entries: ReadonlyMap<string, PathEntry>,
  evidence: ReadonlyMap<string, number>,
  text: TextEvidence,
  source: string,
): Candidate[] {
  const maxIn = Math.max(0, ...text.inSet.values());
  const maxRestricted = Math.max(0, ...text.inSetRestriction.values());
  const maxDenseSet = Math.max(0, ...text.denseSet.values());
  const maxEvidence = Math.max(0, ...evidence.values());
  const typeScore = new Map(plan.targetTypes.map((t) => [t.type, t.score]));
  const candidates: Candidate[] = [];
  for (const entry of entries.values()) {
    const bm25 = text.inSet.get(entry.id) ?? 0;
    const textIn = maxIn > 0 ? bm25 / maxIn : 0;
    const restrictionIn = maxRestricted > 0 ? (text.inSetRestriction.get(entry.id) ?? 0) / maxRestricted : 0;
    const dense = text.denseSet.get(entry.id);
    const denseIn = maxDenseSet > 0 ? (dense ?? 0) / maxDenseSet : 0;
    const structure = evidence.get(entry.id) ?? 0;
    const share = maxEvidence > 0 ? structure / maxEvidence : 0;
    candidates.push({
      id: entry.id,
      ...(entry.type ? { type: entry.type } : {}),
      score: 1 + structure + share * (0.4 * textIn + 0.3 * restrictionIn + 0.3 * denseIn),
      scores: {
        structure,
        structureShare: share,
        pathScore: entry.pathScore,
        pathConfidence: entry.pathConfidence,
        link: entry.link,
        bm25,
        bm25InSet: textIn,
        bm25Restriction: restrictionIn,
        bm25Global: text.maxGlobal > 0 ? bm25 / text.maxGlobal : 0,
        ...(dense !== undefined ? { dense, denseInSet: denseIn } : {}),
        paths: entry.paths.size,
        anchors: entry.anchors.size,
        setSize: entry.setSize,
        hops: entry.hops,
        bestPath: entry.paths.has(0) ? 1 : 0,
        planConfidence: plan.confidence ?? 0,
        targetType: entry.type ? (typeScore.get(entry.type) ?? 0) : 0,
      },
      trajectories: entry.trajectories.map((t) => ({ hops: t.hops, path: t.path })),
      source,
    });
  }
  return candidates;
}

/**
 * Candidates of the text and dense fill that no path reached: 0.6 × normalised BM25 + 0.4 ×
 * normalised dense score, with a one-hop trajectory saying how each was found.
 */
export function fillCandidates(
  plan: Plan,
  entries: ReadonlyMap<string, PathEntry>,
  text: TextEvidence,
  source: string,
): Candidate[] {
  const maxDense = Math.max(0, ...text.globalDense.values());
  const candidates: Candidate[] = [];
  for (const id of new Set([...text.globalText.keys(), ...text.globalDense.keys()])) {
    if (entries.has(id)) continue;
    const bm25 = text.globalText.get(id) ?? 0;
    const dense = text.globalDense.get(id);
    const normalised = text.maxGlobal > 0 ? bm25 / text.maxGlobal : 0;
    const via: HopVia = text.globalText.has(id) ? 'text' : 'vector';
    candidates.push({
      id,
      score: 0.6 * normalised + (dense !== undefined && maxDense > 0 ? 0.4 * (dense / maxDense) : 0),
      scores: {
        structure: 0,
        bm25,
        bm25Global: normalised,
        ...(dense !== undefined ? { dense } : {}),
        paths: 0,
        anchors: 0,
        planConfidence: plan.confidence ?? 0,
      },
      trajectories: [{ hops: [{ node: id, textScore: bm25, via }] }],
      source,
    });
  }
  return candidates;
}

/**
 * The returned list, best first. Structure ranks first, but a large structural set must not crowd
 * out the text fill: when the plan is wrong the answer is often the best text match, and a reranker
 * can only promote what it is given. A share of the list (`fillShare`) is kept for the fill.
 */
export function keepFillShare(
  candidates: readonly Candidate[],
  limit: number,
  fillShare: number,
): Candidate[] {
  const order = (a: Candidate, b: Candidate) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const structural = candidates.filter((c) => (c.scores.structure ?? 0) > 0).sort(order);
  const fill = candidates.filter((c) => !((c.scores.structure ?? 0) > 0)).sort(order);
  const reserved = Math.min(fill.length, Math.ceil(limit * fillShare));
  return [...structural.slice(0, limit - reserved), ...fill].slice(0, limit).sort(order);
}
