import type { Plan } from '@weft/spec';
import type { AnchorStarts, Frontier, PartialTrajectory } from './follow-paths.ts';

/** What the planned paths say about one node they reached. */
export interface PathEntry {
  readonly id: string;
  readonly type: string | undefined;
  readonly trajectories: PartialTrajectory[];
  /** The paths (by index) and anchors that reached it. */
  readonly paths: Set<number>;
  readonly anchors: Set<number>;
  /** Size of the smallest path set it belongs to. */
  setSize: number;
  /** Fewest hops of a path that reached it. */
  hops: number;
  /** Best link score of a start node it was reached from. */
  link: number;
  pathScore: number;
  pathConfidence: number;
}

/**
 * The nodes the paths reached, each with every trajectory that reached it and the best figures of
 * those paths. An anchor is what the query talks about, not what it asks for: its own paths never
 * return it.
 */
export function collectEntries(
  plan: Plan,
  reachedByPath: readonly Frontier[],
  startsOf: AnchorStarts,
): Map<string, PathEntry> {
  const entries = new Map<string, PathEntry>();
  for (const [index, reached] of reachedByPath.entries()) {
    const path = plan.paths[index]!;
    const ownStarts = path.anchor === undefined ? undefined : startsOf.get(path.anchor);
    for (const [id, trajectory] of reached) {
      if (ownStarts?.has(id)) continue;
      let entry = entries.get(id);
      if (!entry) {
        entry = {
          id,
          type: trajectory.hops.at(-1)!.nodeType,
          trajectories: [],
          paths: new Set(),
          anchors: new Set(),
          setSize: Number.POSITIVE_INFINITY,
          hops: Number.POSITIVE_INFINITY,
          link: 0,
          pathScore: 0,
          pathConfidence: 0,
        };
        entries.set(id, entry);
      }
      entry.trajectories.push(trajectory);
      entry.paths.add(index);
      if (path.anchor !== undefined) entry.anchors.add(path.anchor);
      entry.setSize = Math.min(entry.setSize, reached.size);
      entry.hops = Math.min(entry.hops, path.hops.length);
      entry.link = Math.max(entry.link, trajectory.hops[0]?.textScore ?? 0);
      entry.pathScore = Math.max(entry.pathScore, path.score);
      entry.pathConfidence = Math.max(entry.pathConfidence, path.confidence ?? path.score);
    }
  }
  return entries;
}

/**
 * Structural evidence per node: the best trajectory weight of each anchor, summed over anchors (a
 * node two anchors reach ranks higher). With `'intersect'` (MoR), the nodes in the sets of every
 * confident path of different anchors gain 1 on top; when they share nothing, the sum (the union)
 * stands alone.
 */
export function combineEvidence(
  plan: Plan,
  entries: ReadonlyMap<string, PathEntry>,
  reachedByPath: readonly Frontier[],
  combine: 'sum' | 'intersect',
): Map<string, number> {
  const evidence = new Map<string, number>();
  for (const entry of entries.values()) {
    const byAnchor = new Map<number, number>();
    for (const t of entry.trajectories) {
      const anchor = plan.paths[t.path]?.anchor ?? -1;
      byAnchor.set(anchor, Math.max(byAnchor.get(anchor) ?? 0, t.weight));
    }
    evidence.set(
      entry.id,
      [...byAnchor.values()].reduce((s, w) => s + w, 0),
    );
  }
  if (combine === 'intersect') {
    const confident = confidentPaths(plan);
    if (confident.length >= 2) {
      const sets = confident.map((p) => new Set(reachedByPath[p]?.keys() ?? []));
      const both = [...sets[0]!].filter((id) => sets.every((s) => s.has(id)));
      for (const id of both) evidence.set(id, (evidence.get(id) ?? 0) + 1);
    }
  }
  return evidence;
}

/** The best path of each anchor, when confident (≥ half the best path's score). */
function confidentPaths(plan: Plan): number[] {
  const top = plan.paths[0]?.score ?? 0;
  const seen = new Set<number>();
  const out: number[] = [];
  plan.paths.forEach((path, i) => {
    if (path.anchor === undefined || seen.has(path.anchor) || path.score < 0.5 * top) return;
    seen.add(path.anchor);
    out.push(i);
  });
  return out;
}
