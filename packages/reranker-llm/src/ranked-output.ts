import type { Candidate } from '@weft/spec';

/**
 * The reranked list: the candidates at `order` (indices into `candidates`, best first), then every
 * other candidate in its offline order, at most `limit`. Scores are rewritten to agree with the new
 * order (n, n − 1, …); the model's own score, when there is one, is kept as `scores.llm` and the
 * offline score as `scores.offline`. Trajectories are the input's.
 */
export function rankedOutput(
  candidates: readonly Candidate[],
  order: readonly number[],
  limit: number,
  llmScores: ReadonlyMap<number, number> = new Map(),
): Candidate[] {
  const seen = new Set<number>();
  const indices: number[] = [];
  for (const i of [...order, ...candidates.keys()]) {
    if (seen.has(i) || i < 0 || i >= candidates.length) continue;
    seen.add(i);
    indices.push(i);
  }
  const kept = indices.slice(0, limit);
  return kept.map((i, rank) => {
    const candidate = candidates[i]!;
    const llm = llmScores.get(i);
    return {
      ...candidate,
      score: kept.length - rank,
      scores: { ...candidate.scores, offline: candidate.score, ...(llm === undefined ? {} : { llm }) },
    };
  });
}

/** Indices ordered by the model's scores, ties broken by the offline score, then by offline rank. */
export function byScoreThenOffline(
  candidates: readonly Candidate[],
  scores: ReadonlyMap<number, number>,
): number[] {
  return [...scores.keys()].sort(
    (a, b) => scores.get(b)! - scores.get(a)! || candidates[b]!.score - candidates[a]!.score || a - b,
  );
}
