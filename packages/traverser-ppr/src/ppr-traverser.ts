import { anchorSeeds, narrowingTypes, searchText, withTextField } from '@weft/kit';
import type {
  Candidate,
  IndexHit,
  Plan,
  PrepareOptions,
  RetrievalContext,
  Trajectory,
  TrajectoryHop,
  TraverserV1,
  TraverseOptions,
} from '@weft/spec';
import {
  type PushPageRankResult,
  pushPersonalizedPageRank,
  type WalkNeighbor,
} from './push-personalized-page-rank.ts';

export interface PprTraverserOptions {
  /** Shown in traces (default `'ppr'`). */
  readonly name?: string;
  /** Restart probability (default 0.25): higher keeps the walk closer to the seeds. */
  readonly alpha?: number;
  /** Residual threshold of the push (default 1e-4); see `pushPersonalizedPageRank`. */
  readonly epsilon?: number;
  /** Bound on pushes per query (default 50,000). */
  readonly maxPushes?: number;
  /** Linked nodes per mention used as seeds (default 3). */
  readonly nodesPerMention?: number;
  /** Mentions below this specificity seed nothing (default 0.2). */
  readonly minSpecificity?: number;
  /** Best BM25 matches of the query that seed the walk too (default 10; 0 = anchors only). */
  readonly textSeeds?: number;
  /**
   * Share of the restart mass on the text seeds when the query also names nodes (default 0.5);
   * without linked mentions the text seeds take all of it.
   */
  readonly textShare?: number;
  /** Neighbours loaded per node (default 500): a hub is walked through its first ones only. */
  readonly neighborsPerNode?: number;
  /** Follow only the edge types the plan's paths name, when it names any (default true). */
  readonly restrictToPlan?: boolean;
  /**
   * Order the reached nodes by walk probability × how well their own documents match the query
   * (`(floor + bm25 / best bm25)`, one id-filtered search over the `textRescoreK` most probable), instead of
   * the walk probability alone. The walk finds the neighbourhood; the text picks within it.
   * Default 0 (off); `ppr` keeps the walk probability either way.
   */
  readonly textRescoreK?: number;
  /** The floor of that text factor (default 0.1): a node the text misses keeps a tenth of its walk. */
  readonly textFloor?: number;
  /**
   * The text field its searches rank by where the store has it, e.g. `combined` (the document with its
   * neighbours' names by relation); default: the node's own document.
   */
  readonly field?: string;
}

/** What `doPrepare` starts: the query's text seeds. */
interface Prepared {
  readonly text: Promise<IndexHit[]>;
}

/**
 * Personalized PageRank over the graph: a walk that restarts at the nodes the query names (the
 * plan's anchors, weighted by specificity × link score) and at its best text matches, following only
 * the planned relations when the plan names any. Forward push with a residual threshold bounds the
 * work on hubs. Candidates are the nodes of the target types the walk reached, scored by their walk
 * probability (`ppr`), each with its strongest path back to a seed as trajectory; the nodes the
 * query names are left out (the question is about their neighbourhood, not about them).
 */
export class PprTraverser implements TraverserV1 {
  readonly specificationVersion = 'v1';
  readonly name: string;
  private readonly options: PprTraverserOptions;

  constructor(options: PprTraverserOptions = {}) {
    this.name = options.name ?? 'ppr';
    this.options = options;
  }

  doPrepare({ query, context }: PrepareOptions): Prepared {
    const prepared = { text: this.textSeeds(query, withTextField(context, this.options.field)) };
    prepared.text.catch(() => {});
    return prepared;
  }

  async doTraverse(options: TraverseOptions): Promise<Candidate[]> {
    const { query, plan, limit } = options;
    const context = withTextField(options.context, this.options.field);
    if (query.trim() === '') return [];
    const text = await ((options.prepared as Prepared | undefined)?.text ?? this.textSeeds(query, context));
    const anchors = this.namedSeeds(plan);
    const seeds = new Map<string, number>();
    const textShare = anchors.size === 0 ? 1 : (this.options.textShare ?? 0.5);
    const anchorTotal = [...anchors.values()].reduce((s, w) => s + w, 0);
    for (const [id, w] of anchors) seeds.set(id, ((1 - textShare) * w) / anchorTotal);
    const best = text[0]?.score ?? 0;
    const textWeights = text.map((hit) => (best > 0 ? hit.score / best : 1));
    const textTotal = textWeights.reduce((s, w) => s + w, 0);
    text.forEach((hit, i) => {
      if (textTotal > 0)
        seeds.set(hit.id, (seeds.get(hit.id) ?? 0) + (textShare * textWeights[i]!) / textTotal);
    });
    if (seeds.size === 0) return [];
    const edgeTypes = this.plannedEdgeTypes(plan);
    const walk = await pushPersonalizedPageRank({
      seeds,
      neighbors: (nodes) => this.neighbors(nodes, edgeTypes, context),
      ...(this.options.alpha !== undefined ? { alpha: this.options.alpha } : {}),
      ...(this.options.epsilon !== undefined ? { epsilon: this.options.epsilon } : {}),
      ...(this.options.maxPushes !== undefined ? { maxPushes: this.options.maxPushes } : {}),
      ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
    });
    if (walk.stopped !== 'converged')
      context.warn?.(
        `ppr: the walk stopped at a bound (${walk.stopped}, ${walk.pushes} pushes, residual ${walk.residual.toFixed(4)})`,
      );
    const candidates = this.candidates(walk, {
      anchors,
      text,
      plan,
      limit: Math.max(limit, this.options.textRescoreK ?? 0),
      context,
    });
    const k = this.options.textRescoreK ?? 0;
    if (k === 0) return candidates.slice(0, limit);
    const bm25 = await this.reachedText(
      query,
      candidates.slice(0, k).map((c) => c.id),
      context,
    );
    const bestText = Math.max(0, ...bm25.values());
    const floor = this.options.textFloor ?? 0.1;
    return candidates
      .slice(0, k)
      .map((c) => {
        const text = bm25.get(c.id) ?? 0;
        return {
          ...c,
          score: c.score * (floor + (bestText > 0 ? text / bestText : 0)),
          scores: { ...c.scores, bm25: text },
        };
      })
      .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id))
      .slice(0, limit);
  }

  /** BM25 of the query over the reached nodes (one id-filtered search), for `textRescoreK`. */
  private async reachedText(query: string, ids: readonly string[], context: RetrievalContext) {
    if (ids.length === 0) return new Map<string, number>();
    const [hits = []] = await searchText(context.text, [query], {
      limit: ids.length,
      filter: { ids },
      ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
    });
    return new Map(hits.map((hit) => [hit.id, hit.score]));
  }

  private textSeeds(query: string, context: RetrievalContext): Promise<IndexHit[]> {
    const k = this.options.textSeeds ?? 10;
    if (k === 0 || query.trim() === '') return Promise.resolve([]);
    const types = narrowingTypes(context.schema.targetTypes, context.schema);
    return searchText(context.text, [query], {
      limit: k,
      ...(types ? { filter: { nodeTypes: types } } : {}),
      ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
    }).then((lists) => lists[0] ?? []);
  }

  /** The nodes the query names, weighted by the mention's specificity × the link score. */
  private namedSeeds(plan: Plan): Map<string, number> {
    return anchorSeeds(plan, {
      minConfidence: this.options.minSpecificity ?? 0.2,
      perAnchor: this.options.nodesPerMention ?? 3,
      positiveOnly: true,
    });
  }

  /** The edge types of the plan's paths, or undefined (every type) when it plans none. */
  private plannedEdgeTypes(plan: Plan): readonly string[] | undefined {
    if (this.options.restrictToPlan === false) return undefined;
    const types = new Set(plan.paths.flatMap((path) => path.hops.map((hop) => hop.edgeType)));
    return types.size > 0 ? [...types] : undefined;
  }

  private async neighbors(
    nodes: readonly string[],
    edgeTypes: readonly string[] | undefined,
    context: RetrievalContext,
  ): Promise<Map<string, WalkNeighbor[]>> {
    const found = await context.graph.doNeighbors({
      seeds: nodes,
      direction: 'both',
      limitPerSeed: this.options.neighborsPerNode ?? 500,
      ...(edgeTypes ? { edgeTypes } : {}),
      ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
    });
    const out = new Map<string, WalkNeighbor[]>();
    for (const n of found) {
      const list = out.get(n.seed) ?? out.set(n.seed, []).get(n.seed)!;
      list.push({ node: n.node, nodeType: n.nodeType, edgeType: n.edgeType, direction: n.direction });
    }
    return out;
  }

  private candidates(
    walk: PushPageRankResult,
    input: {
      readonly anchors: ReadonlyMap<string, number>;
      readonly text: readonly IndexHit[];
      readonly plan: Plan;
      readonly limit: number;
      readonly context: RetrievalContext;
    },
  ): Candidate[] {
    const { anchors, text, plan, limit, context } = input;
    const textScore = new Map(text.map((hit) => [hit.id, hit.score]));
    const typeOf = new Map(walk.types);
    for (const hit of text) if (hit.type !== undefined) typeOf.set(hit.id, hit.type);
    for (const anchor of plan.anchors) for (const node of anchor.candidates) typeOf.set(node.id, node.type);
    const targets = context.schema.targetTypes ? new Set(context.schema.targetTypes) : undefined;
    const ranked = [...walk.rank]
      .filter(([id]) => !(anchors.has(id) && !textScore.has(id)))
      .filter(([id]) => {
        const type = typeOf.get(id);
        return !targets || type === undefined || targets.has(type);
      })
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, limit);
    return ranked.map(([id, probability]) => {
      const type = typeOf.get(id);
      return {
        id,
        ...(type !== undefined ? { type } : {}),
        score: probability,
        scores: { ppr: probability, ...(textScore.has(id) ? { bm25: textScore.get(id)! } : {}) },
        trajectories: this.paths(id, walk, { anchors, textScore, typeOf }),
        source: this.name,
      };
    });
  }

  /**
   * A seed's own one-hop trajectory, and the chain of strongest incoming steps back to a seed when
   * the walk brought the node mass from elsewhere.
   */
  private paths(
    id: string,
    walk: PushPageRankResult,
    known: {
      readonly anchors: ReadonlyMap<string, number>;
      readonly textScore: ReadonlyMap<string, number>;
      readonly typeOf: ReadonlyMap<string, string>;
    },
  ): Trajectory[] {
    const structural = this.strongestPath(id, walk, known);
    const type = known.typeOf.get(id);
    const self: Trajectory | undefined = known.textScore.has(id)
      ? {
          hops: [
            {
              node: id,
              ...(type !== undefined ? { nodeType: type } : {}),
              via: 'text',
              textScore: known.textScore.get(id)!,
            },
          ],
        }
      : undefined;
    // A chain that never got back to a seed explains nothing a seed's own hop does not.
    if (structural.hops.length === 1 || structural.hops[0]!.via === 'structure') return [self ?? structural];
    return self ? [structural, self] : [structural];
  }

  /** The chain of strongest incoming steps from a node back to a seed (at most 6 hops, no cycle). */
  private strongestPath(
    id: string,
    walk: PushPageRankResult,
    known: {
      readonly anchors: ReadonlyMap<string, number>;
      readonly textScore: ReadonlyMap<string, number>;
      readonly typeOf: ReadonlyMap<string, string>;
    },
  ): Trajectory {
    const steps: { node: string; edgeType?: string; direction?: 'in' | 'out' }[] = [{ node: id }];
    const isSeed = (node: string) => known.anchors.has(node) || known.textScore.has(node);
    const visited = new Set([id]);
    let node = id;
    // Mass only starts at seeds, so the strongest steps lead back to one.
    while ((node === id || !isSeed(node)) && steps.length < 7) {
      const step = walk.strongest.get(node);
      if (!step || visited.has(step.from)) break;
      steps[steps.length - 1] = {
        ...steps[steps.length - 1]!,
        edgeType: step.edgeType,
        direction: step.direction,
      };
      steps.push({ node: step.from });
      visited.add(step.from);
      node = step.from;
    }
    steps.reverse();
    const hops: TrajectoryHop[] = steps.map((step, i) => {
      const type = known.typeOf.get(step.node);
      const base = {
        node: step.node,
        ...(type !== undefined ? { nodeType: type } : {}),
      };
      if (i === 0) {
        if (known.anchors.has(step.node))
          return { ...base, via: 'anchor' as const, textScore: known.anchors.get(step.node)! };
        if (known.textScore.has(step.node))
          return { ...base, via: 'text' as const, textScore: known.textScore.get(step.node)! };
        // The chain broke before a seed (a cycle of strongest steps, or the length bound).
        return { ...base, via: 'structure' as const };
      }
      return {
        ...base,
        // Each step carries the edge that led to it, seen from the node before it.
        edgeType: step.edgeType!,
        direction: step.direction!,
        via: 'structure' as const,
        ...(known.textScore.has(step.node) ? { textScore: known.textScore.get(step.node)! } : {}),
      };
    });
    return { hops };
  }
}
