import { narrowingTypes, searchVector, toWeftError } from '@weft/core';
import type {
  Candidate,
  HopVia,
  IndexHit,
  Plan,
  PrepareOptions,
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
  /** Share of the returned list kept for text/dense fill candidates when there are enough (default 0.3). */
  readonly fillShare?: number;
  /** Dense top-N; its scores also score the structural set where it reaches (default and minimum: fillK + 8). */
  readonly denseK?: number;
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

interface GlobalSearches {
  readonly globalSearch: Promise<IndexHit[][]>;
  readonly denseSearch: Promise<IndexHit[]>;
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
  pathConfidence: number;
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
    const startsOf = this.startsOfAnchors(plan);
    // The global text and dense searches need only the query: started by doPrepare while the
    // planner ran, or here, they run while the paths are followed.
    const fillK = Math.max(this.options.fillK ?? limit, 1);
    const hasText = query.trim().length > 0;
    const { globalSearch, denseSearch } =
      this.takePrepared(query, limit) ?? this.globalSearches(query, limit, context);
    const reachedByPath = await this.followPaths(plan, context, startsOf);

    for (const [index, reached] of reachedByPath.entries()) {
      const path = plan.paths[index]!;
      const ownStarts = path.anchor === undefined ? undefined : startsOf.get(path.anchor);
      for (const [id, trajectory] of reached) {
        // An anchor is what the query talks about, not what it asks for: its own paths never return it.
        if (ownStarts?.has(id)) continue;
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
        const sets = confident.map((p) => new Set(reachedByPath[p]?.keys() ?? []));
        const both = [...sets[0]!].filter((id) => sets.every((s) => s.has(id)));
        if (both.length > 0) for (const id of both) evidence.set(id, (evidence.get(id) ?? 0) + 1);
      }
    }

    // Text scores inside the structural set (query and restriction), joined with the global
    // searches. The dense search is wide enough to score most of the structural set as well: one
    // filtered to the set's ids costs LanceDB a scan (≈ 4× a global one).
    const ids = [...entries.keys()];
    const restriction = plan.restriction && plan.restriction !== query ? plan.restriction : query;
    const [inSetHits, globalHits, denseGlobal] = await Promise.all([
      ids.length > 0 && hasText
        ? context.text.doSearch({
            queries: [query, restriction],
            limit: ids.length,
            filter: { ids },
            ...signal,
          })
        : Promise.resolve([[], []]),
      globalSearch,
      denseSearch,
    ]);
    // Anchors of planned paths are what the query talks about: they are not offered as answers.
    const pathAnchors = new Set(plan.paths.flatMap((p) => (p.anchor === undefined ? [] : [p.anchor])));
    const anchorIds = new Set(
      [...startsOf].filter(([a]) => pathAnchors.has(a)).flatMap(([, s]) => [...s.keys()]),
    );
    const inSet = new Map((inSetHits[0] ?? []).map((h) => [h.id, h.score]));
    const inSetRestriction = new Map((inSetHits[1] ?? []).map((h) => [h.id, h.score]));
    const globalText = new Map(
      (globalHits[0] ?? [])
        .filter((h) => !anchorIds.has(h.id))
        .slice(0, fillK)
        .map((h) => [h.id, h.score]),
    );
    const denseAll = new Map(denseGlobal.filter((h) => !anchorIds.has(h.id)).map((h) => [h.id, h.score]));
    const denseSet = new Map(ids.filter((id) => denseAll.has(id)).map((id) => [id, denseAll.get(id)!]));
    const globalDense = new Map(
      denseGlobal
        .filter((h) => !anchorIds.has(h.id))
        .slice(0, fillK)
        .map((h) => [h.id, h.score]),
    );

    const maxIn = Math.max(0, ...inSet.values());
    const maxRestricted = Math.max(0, ...inSetRestriction.values());
    const maxGlobal = Math.max(0, ...globalText.values(), ...inSet.values());
    const maxDenseSet = Math.max(0, ...denseSet.values());
    const maxEvidence = Math.max(0, ...evidence.values());
    const candidates: Candidate[] = [];
    const typeScore = new Map(plan.targetTypes.map((t) => [t.type, t.score]));
    for (const entry of entries.values()) {
      const bm25 = inSet.get(entry.id) ?? 0;
      const textIn = maxIn > 0 ? bm25 / maxIn : 0;
      const restrictionIn = maxRestricted > 0 ? (inSetRestriction.get(entry.id) ?? 0) / maxRestricted : 0;
      const denseIn = maxDenseSet > 0 ? (denseSet.get(entry.id) ?? 0) / maxDenseSet : 0;
      const structure = evidence.get(entry.id) ?? 0;
      const share = maxEvidence > 0 ? structure / maxEvidence : 0;
      // Structure decides the tier, text and dense order the candidates inside it.
      const score = 1 + structure + share * (0.4 * textIn + 0.3 * restrictionIn + 0.3 * denseIn);
      candidates.push({
        id: entry.id,
        ...(entry.type ? { type: entry.type } : {}),
        score,
        scores: {
          structure,
          structureShare: share,
          pathScore: entry.pathScore,
          pathConfidence: entry.pathConfidence,
          link: entry.link,
          bm25,
          bm25InSet: textIn,
          bm25Restriction: restrictionIn,
          bm25Global: maxGlobal > 0 ? bm25 / maxGlobal : 0,
          ...(denseSet.has(entry.id) ? { dense: denseSet.get(entry.id)!, denseInSet: denseIn } : {}),
          paths: entry.paths.size,
          anchors: entry.anchors.size,
          setSize: entry.setSize,
          hops: entry.hops,
          bestPath: entry.paths.has(0) ? 1 : 0,
          planConfidence: plan.confidence ?? 0,
          targetType: entry.type ? (typeScore.get(entry.type) ?? 0) : 0,
        },
        trajectories: entry.trajectories.map((t) => ({ hops: t.hops, path: t.path })),
        source: this.name,
      });
    }
    const fillIds = new Set([...globalText.keys(), ...globalDense.keys()]);
    const maxDense = Math.max(0, ...globalDense.values());
    for (const id of fillIds) {
      if (entries.has(id)) continue;
      const text = globalText.get(id) ?? 0;
      const denseScore = globalDense.get(id);
      const normalised = maxGlobal > 0 ? text / maxGlobal : 0;
      const via: HopVia = globalText.has(id) ? 'text' : 'vector';
      candidates.push({
        id,
        score:
          0.6 * normalised + (denseScore !== undefined && maxDense > 0 ? 0.4 * (denseScore / maxDense) : 0),
        scores: {
          structure: 0,
          bm25: text,
          bm25Global: normalised,
          ...(denseScore !== undefined ? { dense: denseScore } : {}),
          paths: 0,
          anchors: 0,
          planConfidence: plan.confidence ?? 0,
        },
        trajectories: [{ hops: [{ node: id, textScore: text, via }] }],
        source: this.name,
      });
    }
    await this.markAnchorNeighbors(plan, context, candidates, startsOf);
    const order = (a: Candidate, b: Candidate) =>
      b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    // Structure ranks first, but a large structural set must not crowd out the text fill: when the
    // plan is wrong the answer is often the best text match, and a reranker can only promote what
    // it is given. A share of the list is kept for the fill.
    const structural = candidates.filter((c) => (c.scores.structure ?? 0) > 0).sort(order);
    const fill = candidates.filter((c) => !((c.scores.structure ?? 0) > 0)).sort(order);
    const reserved = Math.min(fill.length, Math.ceil(limit * (this.options.fillShare ?? 0.3)));
    const kept = [...structural.slice(0, limit - reserved), ...fill];
    return kept.slice(0, limit).sort(order);
  }

  /** Global searches started by doPrepare, per query and limit; taken (and forgotten) by doTraverse. */
  private readonly prepared = new Map<string, GlobalSearches>();

  doPrepare(options: PrepareOptions): void {
    const key = `${options.limit}\u0000${options.query}`;
    if (this.prepared.has(key)) return;
    this.prepared.set(key, this.globalSearches(options.query, options.limit, options.context));
    // A prepared query whose traversal never came (a failed planner) must not stay forever.
    while (this.prepared.size > 64) this.prepared.delete(this.prepared.keys().next().value!);
  }

  private takePrepared(query: string, limit: number): GlobalSearches | undefined {
    const key = `${limit}\u0000${query}`;
    const found = this.prepared.get(key);
    this.prepared.delete(key);
    return found;
  }

  /** The global BM25 fill and the wide dense search on the target types: they need only the query. */
  private globalSearches(query: string, limit: number, context: RetrievalContext): GlobalSearches {
    const signal = context.abortSignal ? { abortSignal: context.abortSignal } : {};
    const fillK = Math.max(this.options.fillK ?? limit, 1);
    const denseK = Math.max(fillK + 8, this.options.denseK ?? 0);
    const targetTypes = narrowingTypes(context.schema.targetTypes, context.schema);
    const targetFilter = targetTypes ? { nodeTypes: targetTypes } : undefined;
    const hasText = query.trim().length > 0;
    const globalSearch: Promise<IndexHit[][]> = hasText
      ? context.text.doSearch({
          queries: [query],
          limit: fillK + 8,
          ...(targetFilter ? { filter: targetFilter } : {}),
          ...signal,
        })
      : Promise.resolve([[]]);
    const denseSearch: Promise<IndexHit[]> =
      context.vector && context.embeddingModel && hasText
        ? this.dense(context, query, {
            limit: denseK,
            ...(targetFilter ? { filter: targetFilter } : {}),
            ...signal,
          })
        : Promise.resolve([]);
    // Awaited later; until then a failure must not count as unhandled.
    globalSearch.catch(() => undefined);
    denseSearch.catch(() => undefined);
    return { globalSearch, denseSearch };
  }

  /**
   * Structural support that does not depend on the predicted relation: a candidate one hop from any
   * anchor of the plan, by whatever edge, gets that anchor's weight as `anchorNeighbor` (and the
   * number of such anchors as `anchorNeighbors`); a text-only candidate gains the trajectory from
   * the anchor. This recovers answers whose relation the planner got wrong but whose anchor it
   * found. One batched neighbour call over the candidates.
   */
  private async markAnchorNeighbors(
    plan: Plan,
    context: RetrievalContext,
    candidates: Candidate[],
    startsOf: ReadonlyMap<
      number,
      ReadonlyMap<string, { type: string | undefined; score: number; share: number }>
    >,
  ): Promise<void> {
    const anchorOf = new Map<string, { anchor: number; weight: number; type: string | undefined }>();
    for (const [a, starts] of startsOf) {
      const confidence = plan.anchors[a]?.confidence ?? 0;
      for (const [id, start] of starts) {
        const weight = confidence * start.share;
        if ((anchorOf.get(id)?.weight ?? -1) < weight)
          anchorOf.set(id, { anchor: a, weight, type: start.type });
      }
    }
    if (anchorOf.size === 0 || candidates.length === 0) return;
    const seeds = candidates.map((c) => c.id).filter((id) => !anchorOf.has(id));
    const neighbors = await context.graph.doNeighbors({
      seeds,
      direction: 'both',
      limitPerSeed: this.options.neighborsPerSeed ?? 200,
      ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
    });
    const support = new Map<string, { weight: number; anchors: Set<number>; hop: TrajectoryHop[] }>();
    for (const n of neighbors) {
      const anchor = anchorOf.get(n.node);
      if (!anchor) continue;
      const entry = support.get(n.seed) ?? { weight: 0, anchors: new Set<number>(), hop: [] };
      entry.anchors.add(anchor.anchor);
      if (anchor.weight > entry.weight) {
        entry.weight = anchor.weight;
        // Seen from the anchor, the edge runs the other way.
        entry.hop = [
          { node: n.node, ...(anchor.type ? { nodeType: anchor.type } : {}), via: 'anchor' },
          {
            node: n.seed,
            edgeType: n.edgeType,
            direction: n.direction === 'out' ? 'in' : n.direction === 'in' ? 'out' : n.direction,
            via: 'structure',
          },
        ];
      }
      support.set(n.seed, entry);
    }
    for (const [i, candidate] of candidates.entries()) {
      const found = support.get(candidate.id);
      if (!found) continue;
      const textOnly = !((candidate.scores.structure ?? 0) > 0);
      candidates[i] = {
        ...candidate,
        // A text match next to an anchor outranks other text matches in the fill.
        score: textOnly ? candidate.score + 0.5 * found.weight : candidate.score,
        scores: { ...candidate.scores, anchorNeighbor: found.weight, anchorNeighbors: found.anchors.size },
        trajectories: textOnly ? [...candidate.trajectories, { hops: found.hop }] : candidate.trajectories,
      };
    }
  }

  private async dense(
    context: RetrievalContext,
    query: string,
    options: Parameters<typeof searchVector>[3],
  ): Promise<{ id: string; score: number }[]> {
    try {
      const [hits] = await searchVector(context.vector!, context.embeddingModel!, [query], options);
      return hits ?? [];
    } catch (error) {
      throw toWeftError(error, 'WEFT_STAGE_FAILED', 'dense search failed');
    }
  }

  /** The start nodes of each anchor: candidates scoring at least `startRatio` of its best. */
  private startsOfAnchors(
    plan: Plan,
  ): Map<number, Map<string, { type: string | undefined; score: number; share: number }>> {
    const out = new Map<number, Map<string, { type: string | undefined; score: number; share: number }>>();
    plan.anchors.forEach((anchor, a) => {
      const best = anchor.candidates[0]?.score ?? 0;
      const starts = anchor.candidates
        .filter((c) => c.score >= best * (this.options.startRatio ?? 0.6))
        .slice(0, this.options.maxStarts ?? 3);
      out.set(
        a,
        new Map(
          starts.map((s) => [s.id, { type: s.type, score: s.score, share: best > 0 ? s.score / best : 1 }]),
        ),
      );
    });
    return out;
  }

  /**
   * Follows every planned path hop by hop, all paths at once: one neighbour call per depth (the
   * union of the frontiers and edge types, split per path afterwards).
   */
  private async followPaths(
    plan: Plan,
    context: RetrievalContext,
    startsOf: ReadonlyMap<
      number,
      ReadonlyMap<string, { type: string | undefined; score: number; share: number }>
    >,
  ): Promise<Map<string, PartialTrajectory>[]> {
    const signal = context.abortSignal ? { abortSignal: context.abortSignal } : {};
    const frontierLimit = this.options.frontierLimit ?? 300;
    const hopTextK = this.options.hopTextK ?? 20;
    const frontiers: Map<string, PartialTrajectory>[] = [];
    for (const [index, path] of plan.paths.entries()) {
      const frontier = new Map<string, PartialTrajectory>();
      const starts = path.anchor === undefined ? undefined : startsOf.get(path.anchor);
      if (starts) {
        for (const [id, start] of starts) {
          frontier.set(id, {
            hops: [
              {
                node: id,
                ...(start.type ? { nodeType: start.type } : {}),
                textScore: start.score,
                via: 'anchor',
              },
            ],
            path: index,
            weight: path.score * start.share,
          });
        }
      } else if (path.startTypes && path.startTypes.length > 0) {
        const [hits] = await context.text.doSearch({
          queries: [plan.restriction || plan.query],
          limit: hopTextK,
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
      frontiers.push(path.hops.length === 0 ? new Map() : frontier);
    }
    const depth = Math.max(0, ...plan.paths.map((p) => p.hops.length));
    for (let d = 0; d < depth; d++) {
      const active = plan.paths
        .map((path, index) => ({ path, index, hop: path.hops[d] }))
        .filter((a) => a.hop && frontiers[a.index]!.size > 0);
      if (active.length === 0) break;
      const seeds = [...new Set(active.flatMap((a) => [...frontiers[a.index]!.keys()]))];
      const edgeTypes = [...new Set(active.map((a) => a.hop!.edgeType))];
      const directions = new Set(active.map((a) => a.hop!.direction));
      const neighbors = await context.graph.doNeighbors({
        seeds,
        edgeTypes,
        direction: directions.size === 1 ? [...directions][0]! : 'both',
        limitPerSeed: (this.options.neighborsPerSeed ?? 200) * Math.max(1, edgeTypes.length),
        ...signal,
      });
      const bySeed = new Map<string, typeof neighbors>();
      for (const n of neighbors) (bySeed.get(n.seed) ?? bySeed.set(n.seed, []).get(n.seed)!).push(n);
      // MoR's textual half of each hop: the text top-k of the hop's node type, for every path at once.
      const hopHits = await Promise.all(
        active.map(({ hop }) =>
          hop!.nodeTypes && hop!.nodeTypes.length > 0 && hopTextK > 0
            ? context.text
                .doSearch({
                  queries: [hop!.restriction || plan.restriction || plan.query],
                  limit: hopTextK,
                  filter: { nodeTypes: hop!.nodeTypes },
                  ...signal,
                })
                .then(([hits]) => hits ?? [])
            : Promise.resolve([]),
        ),
      );
      for (const [a, { index, hop }] of active.entries()) {
        const frontier = frontiers[index]!;
        const allowed = hop!.nodeTypes ? new Set(hop!.nodeTypes) : undefined;
        const next = new Map<string, PartialTrajectory>();
        for (const [seed, from] of frontier) {
          for (const n of bySeed.get(seed) ?? []) {
            if (n.edgeType !== hop!.edgeType || n.direction !== hop!.direction) continue;
            if (allowed && !allowed.has(n.nodeType)) continue;
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
        }
        const hits = hopHits[a]!;
        if (hits.length > 0) {
          const max = Math.max(0, ...hits.map((h) => h.score));
          const base = [...frontier.values()][0]!;
          for (const hit of hits) {
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
          frontiers[index] = keep;
        } else frontiers[index] = next;
      }
    }
    return frontiers;
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
