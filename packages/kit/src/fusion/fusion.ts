import type { Candidate, Trajectory } from '@weft/spec';

/** Merges the candidate lists of several traversers into one ranking. */
export interface Fusion {
  readonly name: string;
  fuse(lists: readonly (readonly Candidate[])[], options: { readonly limit: number }): Candidate[];
}

interface Accumulator {
  id: string;
  type: string | undefined;
  score: number;
  scores: Record<string, number>;
  trajectories: Trajectory[];
  sources: Set<string>;
}

function accumulate(
  lists: readonly (readonly Candidate[])[],
  contribution: (candidate: Candidate, rank: number, listIndex: number) => number,
): Accumulator[] {
  const byId = new Map<string, Accumulator>();
  lists.forEach((list, listIndex) => {
    const seen = new Set<string>();
    list.forEach((candidate, rank) => {
      // A list that repeats an id counts it once, at its best rank.
      if (seen.has(candidate.id)) return;
      seen.add(candidate.id);
      let entry = byId.get(candidate.id);
      if (!entry) {
        entry = {
          id: candidate.id,
          type: candidate.type,
          score: 0,
          scores: {},
          trajectories: [],
          sources: new Set(),
        };
        byId.set(candidate.id, entry);
      }
      entry.score += contribution(candidate, rank, listIndex);
      entry.type ??= candidate.type;
      for (const [name, value] of Object.entries(candidate.scores)) {
        entry.scores[name] = Math.max(entry.scores[name] ?? Number.NEGATIVE_INFINITY, value);
      }
      entry.trajectories.push(...candidate.trajectories);
      if (candidate.source) entry.sources.add(candidate.source);
    });
  });
  return [...byId.values()];
}

function finish(entries: Accumulator[], scoreName: string, limit: number): Candidate[] {
  // Ties broken by id so that fusion is deterministic.
  entries.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return entries.slice(0, limit).map((entry) => ({
    id: entry.id,
    ...(entry.type === undefined ? {} : { type: entry.type }),
    score: entry.score,
    scores: { ...entry.scores, [scoreName]: entry.score },
    trajectories: entry.trajectories,
    source: [...entry.sources].sort().join('+') || scoreName,
  }));
}

/** Reciprocal rank fusion: score = Σ wᵢ / (k + rankᵢ), ranks from 1. */
export function reciprocalRankFusion(options: { k?: number; weights?: readonly number[] } = {}): Fusion {
  const k = options.k ?? 60;
  return {
    name: 'rrf',
    fuse(lists, { limit }) {
      const entries = accumulate(
        lists,
        (_c, rank, listIndex) => (options.weights?.[listIndex] ?? 1) / (k + rank + 1),
      );
      return finish(entries, 'rrf', limit);
    },
  };
}

/**
 * Weighted sum of min-max normalised scores: each list's scores are mapped to [0, 1] (a list whose
 * scores are all equal maps to 1), then Σ wᵢ · normᵢ.
 */
export function weightedScoreFusion(options: { weights?: readonly number[] } = {}): Fusion {
  return {
    name: 'weighted',
    fuse(lists, { limit }) {
      const ranges = lists.map((list) => {
        let min = Number.POSITIVE_INFINITY;
        let max = Number.NEGATIVE_INFINITY;
        for (const candidate of list) {
          min = Math.min(min, candidate.score);
          max = Math.max(max, candidate.score);
        }
        return { min, span: max - min };
      });
      const entries = accumulate(lists, (candidate, _rank, listIndex) => {
        const range = ranges[listIndex]!;
        const normalised = range.span > 0 ? (candidate.score - range.min) / range.span : 1;
        return (options.weights?.[listIndex] ?? 1) * normalised;
      });
      return finish(entries, 'weighted', limit);
    },
  };
}
