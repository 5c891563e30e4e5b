import { searchVector, toWeftError } from '@weft/core';
import type {
  Candidate,
  HopVia,
  Plan,
  PlanPath,
  RetrievalContext,
  TrajectoryHop,
  TraverserV1,
  TraverseOptions,
} from '@weft/spec';

export interface MixedTraverserOptions {
  /** Name shown in traces (default `'mor'`). */
  readonly name?: string;
  /** Most nodes kept on a frontier after each hop (default 300). */
  readonly frontierLimit?: number;
  /** Most neighbours taken from one node per hop (default 200). */
  readonly neighborsPerSeed?: number;
  /** Text top-k of a hop's node type united with its neighbours, when the hop names its types (default 20). */
  readonly hopTextK?: number;
  /** Text (and dense) top-N on the target types used to fill the list (default: the limit). */
  readonly fillK?: number;
  /** Start from anchor candidates scoring at least this fraction of the best (default 0.6) ... */
  readonly startRatio?: number;
  /** ... and at most this many of them (default 3). */
  readonly maxStarts?: number;
  /**
   * How the sets of several paths combine: `'sum'` adds their evidence (a node reached by two
   * anchors ranks higher); `'intersect'` keeps the intersection of the confident paths of different
   * anchors, falling back to the union when it is empty (MoR).
   */
  readonly combine?: 'sum' | 'intersect';
}

interface PartialTrajectory {
  readonly hops: TrajectoryHop[];
  readonly path: number;
  /** Link score of the start node times the path score. */
  readonly weight: number;
}

interface Entry {
  id: string;
  type: string | undefined;
  trajectories: PartialTrajectory[];
  structure: number;
  paths: Set<number>;
  anchors: Set<number>;
  setSize: number;
  hops: number;
  link: number;
  pathScore: number;
}

/**
 * Mixed traversal (MoR): for each planned path, per hop the union of the frontier's typed neighbours
 * and the text top-k of the hop's node type; candidates keep every trajectory that reached them
 * (node per hop, edge type, direction, text score, how it was reached). Text and dense matches on
 * the target types fill the list when the structure finds little. All store calls are batched: one
 * neighbour call per hop, one text search for the candidate set.
 */
export class MixedTraverser implements TraverserV1 {
  readonly specificationVersion = 'v1';
  readonly name: string;
  private readonly options: MixedTraverserOptions;

  constructor(options: MixedTraverserOptions = {}) {
    this.options = options;
    this.name = options.name ?? 'mor';
  }

  async doTraverse(options: TraverseOptions): Promise<Candidate[]> {
    const { plan, context, limit } = options;
    const query = options.query;
    const signal = context.abortSignal ? { abortSignal: context.abortSignal } : {};
    const entries = new Map<string, Entry>();
    const setSizes: number[] = [];
    const pathSets: Set<string>[] = [];

    for (const [index, path] of plan.paths.entries()) {
      const reached = await this.followPath(index, path, plan, context);
      setSizes.push(reached.size);
      pathSets.push(new Set(reached.keys()));
      for (const [id, trajectory] of reached) {
        const last = trajectory.hops.at(-1)!;
        let entry = entries.get(id);
        if (!entry) {
          entry = {
            id,
            type: last.nodeType,
            trajectories: [],
            structure: 0,
            paths: new Set(),
            anchors: new Set(),
            setSize: Number.POSITIVE_INFINITY,
            hops: Number.POSITIVE_INFINITY,
            link: 0,
            pathScore: 0,
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
      }
    }

    // Evidence of several anchors: summed, or (MoR) intersected with the union as the fallback.
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
    if (this.options.combine === 'intersect') {
      const confident = confidentPaths(plan);
      if (confident.length >= 2) {
        const sets = confident.map((p) => pathSets[p] ?? new Set<string>());
        const both = [...sets[0]!].filter((id) => sets.every((s) => s.has(id)));
        if (both.length > 0) for (const id of both) evidence.set(id, (evidence.get(id) ?? 0) + 1);
      }
    }

    // Text scores for every structural candidate, for the query and for the restriction, in one call.
    const ids = [...entries.keys()];
    const restriction = plan.restriction && plan.restriction !== query ? plan.restriction : query;
    const inSet = new Map<string, number>();
    const inSetRestriction = new Map<string, number>();
    if (ids.length > 0 && query.trim()) {
      const [full, restricted] = await context.text.doSearch({
        queries: [query, restriction],
        limit: ids.length,
        filter: { ids },
        ...signal,
      });
      for (const hit of full ?? []) inSet.set(hit.id, hit.score);
      for (const hit of restricted ?? []) inSetRestriction.set(hit.id, hit.score);
    }

    // The fill: text and dense top-N on the schema's target types.
    const fillK = Math.max(this.options.fillK ?? limit, 1);
    const targetFilter = context.schema.targetTypes ? { nodeTypes: context.schema.targetTypes } : undefined;
    const globalText = new Map<string, number>();
    const globalDense = new Map<string, number>();
    if (query.trim()) {
      const [hits] = await context.text.doSearch({
        queries: [query],
        limit: fillK,
        ...(targetFilter ? { filter: targetFilter } : {}),
        ...signal,
      });
      for (const hit of hits ?? []) globalText.set(hit.id, hit.score);
      if (context.vector && context.embeddingModel) {
        try {
          const [dense] = await searchVector(context.vector, context.embeddingModel, [query], {
            limit: fillK,
            ...(targetFilter ? { filter: targetFilter } : {}),
            ...signal,
          });
          for (const hit of dense ?? []) globalDense.set(hit.id, hit.score);
        } catch (error) {
          throw toWeftError(error, 'WEFT_STAGE_FAILED', 'dense search failed');
        }
      }
    }

    const maxIn = Math.max(0, ...inSet.values());
    const maxRestricted = Math.max(0, ...inSetRestriction.values());
    const maxGlobal = Math.max(0, ...globalText.values(), ...inSet.values());
    const candidates: Candidate[] = [];
    const typeScore = new Map(plan.targetTypes.map((t) => [t.type, t.score]));
    for (const entry of entries.values()) {
      const bm25 = inSet.get(entry.id) ?? 0;
      const textIn = maxIn > 0 ? bm25 / maxIn : 0;
      const structure = evidence.get(entry.id) ?? 0;
      const score = structure * (0.5 + 0.5 * textIn) + 0.25 * (maxGlobal > 0 ? bm25 / maxGlobal : 0);
      candidates.push({
        id: entry.id,
        ...(entry.type ? { type: entry.type } : {}),
        score,
        scores: {
          structure,
          pathScore: entry.pathScore,
          link: entry.link,
          bm25,
          bm25InSet: textIn,
          bm25Restriction: maxRestricted > 0 ? (inSetRestriction.get(entry.id) ?? 0) / maxRestricted : 0,
          bm25Global: maxGlobal > 0 ? bm25 / maxGlobal : 0,
          ...(globalDense.has(entry.id) ? { dense: globalDense.get(entry.id)! } : {}),
          paths: entry.paths.size,
          anchors: entry.anchors.size,
          setSize: entry.setSize,
          hops: entry.hops,
          targetType: entry.type ? (typeScore.get(entry.type) ?? 0) : 0,
        },
        trajectories: entry.trajectories.map((t) => ({ hops: t.hops, path: t.path })),
        source: this.name,
      });
    }
    const fillIds = new Set([...globalText.keys(), ...globalDense.keys()]);
    const maxDense = Math.max(0, ...globalDense.values());
    if (fillIds.size > 0) {
      const missing = [...fillIds].filter((id) => !entries.has(id));
      const nodes = missing.length ? await context.graph.doGetNodes(missing, signal) : [];
      missing.forEach((id, i) => {
        const node = nodes[i];
        const text = globalText.get(id) ?? 0;
        const dense = globalDense.get(id);
        const normalised = maxGlobal > 0 ? text / maxGlobal : 0;
        const via: HopVia = globalText.has(id) ? 'text' : 'vector';
        candidates.push({
          id,
          ...(node ? { type: node.type } : {}),
          score: 0.25 * normalised + (dense !== undefined && maxDense > 0 ? 0.1 * (dense / maxDense) : 0),
          scores: {
            structure: 0,
            bm25: text,
            bm25Global: normalised,
            ...(dense !== undefined ? { dense } : {}),
            paths: 0,
            anchors: 0,
            targetType: node ? (typeScore.get(node.type) ?? 0) : 0,
          },
          trajectories: [
            { hops: [{ node: id, ...(node ? { nodeType: node.type } : {}), textScore: text, via }] },
          ],
          source: this.name,
        });
      });
    }
    candidates.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return candidates.slice(0, limit);
  }

  /** Follows one planned path hop by hop; returns the landing nodes with one trajectory each. */
  private async followPath(
    index: number,
    path: PlanPath,
    plan: Plan,
    context: RetrievalContext,
  ): Promise<Map<string, PartialTrajectory>> {
    const signal = context.abortSignal ? { abortSignal: context.abortSignal } : {};
    const frontierLimit = this.options.frontierLimit ?? 300;
    let frontier = new Map<string, PartialTrajectory>();
    const anchor = path.anchor === undefined ? undefined : plan.anchors[path.anchor];
    if (anchor) {
      const best = anchor.candidates[0]?.score ?? 0;
      const starts = anchor.candidates
        .filter((c) => c.score >= best * (this.options.startRatio ?? 0.6))
        .slice(0, this.options.maxStarts ?? 3);
      for (const start of starts) {
        frontier.set(start.id, {
          hops: [{ node: start.id, nodeType: start.type, textScore: start.score, via: 'anchor' }],
          path: index,
          weight: path.score * (best > 0 ? start.score / best : 1),
        });
      }
    } else if (path.startTypes && path.startTypes.length > 0) {
      const [hits] = await context.text.doSearch({
        queries: [plan.restriction || plan.query],
        limit: this.options.hopTextK ?? 20,
        filter: { nodeTypes: path.startTypes },
        ...signal,
      });
      const max = Math.max(0, ...(hits ?? []).map((h) => h.score));
      for (const hit of hits ?? []) {
        frontier.set(hit.id, {
          hops: [{ node: hit.id, textScore: hit.score, via: 'text' }],
          path: index,
          weight: path.score * (max > 0 ? hit.score / max : 0),
        });
      }
    }
    for (const hop of path.hops) {
      if (frontier.size === 0) break;
      const neighbors = await context.graph.doNeighbors({
        seeds: [...frontier.keys()],
        edgeTypes: [hop.edgeType],
        direction: hop.direction,
        ...(hop.nodeTypes ? { nodeTypes: hop.nodeTypes } : {}),
        limitPerSeed: this.options.neighborsPerSeed ?? 200,
        ...signal,
      });
      const next = new Map<string, PartialTrajectory>();
      for (const n of neighbors) {
        const from = frontier.get(n.seed);
        if (!from) continue;
        const previous = next.get(n.node);
        if (previous && previous.weight >= from.weight) continue;
        next.set(n.node, {
          hops: [
            ...from.hops,
            {
              node: n.node,
              nodeType: n.nodeType,
              edgeType: n.edgeType,
              direction: n.direction,
              via: 'structure',
            },
          ],
          path: index,
          weight: from.weight,
        });
      }
      // MoR's textual half of a hop: the text top-k of the hop's node type.
      const hopTextK = this.options.hopTextK ?? 20;
      if (hop.nodeTypes && hop.nodeTypes.length > 0 && hopTextK > 0) {
        const [hits] = await context.text.doSearch({
          queries: [hop.restriction || plan.restriction || plan.query],
          limit: hopTextK,
          filter: { nodeTypes: hop.nodeTypes },
          ...signal,
        });
        const max = Math.max(0, ...(hits ?? []).map((h) => h.score));
        const base = [...frontier.values()][0]!;
        for (const hit of hits ?? []) {
          if (next.has(hit.id)) continue;
          next.set(hit.id, {
            hops: [...base.hops, { node: hit.id, textScore: hit.score, via: 'text' }],
            path: index,
            weight: 0.5 * base.weight * (max > 0 ? hit.score / max : 0),
          });
        }
      }
      if (next.size > frontierLimit) {
        // Bounded frontier: keep the nodes whose documents fit the query best.
        const ids = [...next.keys()];
        const [hits] = await context.text.doSearch({
          queries: [plan.query],
          limit: frontierLimit,
          filter: { ids },
          ...signal,
        });
        const keep = new Map<string, PartialTrajectory>();
        for (const hit of hits ?? []) keep.set(hit.id, next.get(hit.id)!);
        for (const id of ids) {
          if (keep.size >= frontierLimit) break;
          if (!keep.has(id)) keep.set(id, next.get(id)!);
        }
        frontier = keep;
      } else frontier = next;
    }
    if (path.hops.length === 0) return new Map();
    return frontier;
  }
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
