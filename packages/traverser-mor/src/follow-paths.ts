import { searchText } from '@weft/kit';
import type {
  GraphNeighbor,
  IndexHit,
  Plan,
  PlanHop,
  PlanPath,
  RetrievalContext,
  TrajectoryHop,
} from '@weft/spec';
import { signalOf } from './signal-of.ts';

/** A start node of an anchor: its type, link score, and score as a share of the anchor's best. */
export interface AnchorStart {
  readonly type: string | undefined;
  readonly score: number;
  readonly share: number;
}

/** The start nodes of each anchor of a plan, by anchor index. */
export type AnchorStarts = ReadonlyMap<number, ReadonlyMap<string, AnchorStart>>;

/** A trajectory while a path is followed: hops so far, the path's index, and its weight. */
export interface PartialTrajectory {
  readonly hops: TrajectoryHop[];
  readonly path: number;
  /** Link score of the start node times the path score. */
  readonly weight: number;
}

/** The nodes a path has reached so far, each with its best trajectory. */
export type Frontier = Map<string, PartialTrajectory>;

export interface FollowPathsSettings {
  /** Most nodes kept on a frontier after each hop. */
  readonly frontierLimit: number;
  /** Most neighbours taken from one node per hop (and edge type). */
  readonly neighborsPerSeed: number;
  /** Text top-k of a hop's node type united with its neighbours; 0 turns the textual half off. */
  readonly hopTextK: number;
}

interface ActiveHop {
  readonly index: number;
  readonly hop: PlanHop;
}

/** The start nodes of each anchor: candidates scoring at least `startRatio` of its best, at most `maxStarts`. */
export function startsOfAnchors(
  plan: Plan,
  startRatio: number,
  maxStarts: number,
): Map<number, Map<string, AnchorStart>> {
  const out = new Map<number, Map<string, AnchorStart>>();
  plan.anchors.forEach((anchor, a) => {
    const best = anchor.candidates[0]?.score ?? 0;
    const starts = anchor.candidates.filter((c) => c.score >= best * startRatio).slice(0, maxStarts);
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
 * union of the frontiers and edge types, split per path afterwards). Returns, per path, the nodes
 * its last hop reached.
 */
export async function followPaths(
  plan: Plan,
  context: RetrievalContext,
  startsOf: AnchorStarts,
  settings: FollowPathsSettings,
): Promise<Frontier[]> {
  const frontiers: Frontier[] = [];
  for (const [index, path] of plan.paths.entries()) {
    const frontier = await startFrontier(plan, path, index, startsOf, context, settings.hopTextK);
    frontiers.push(path.hops.length === 0 ? new Map() : frontier);
  }
  const depth = Math.max(0, ...plan.paths.map((p) => p.hops.length));
  for (let d = 0; d < depth; d++) {
    const active: ActiveHop[] = [];
    for (const [index, path] of plan.paths.entries()) {
      const hop = path.hops[d];
      if (hop && frontiers[index]!.size > 0) active.push({ index, hop });
    }
    if (active.length === 0) break;
    const bySeed = await neighborsBySeed(active, frontiers, context, settings.neighborsPerSeed);
    // MoR's textual half of each hop: the text top-k of the hop's node type, for every path at once.
    const hopHits = await Promise.all(
      active.map(({ hop }) => hopTextHits(plan, hop, context, settings.hopTextK)),
    );
    for (const [a, { index, hop }] of active.entries()) {
      const next = stepFrontier(frontiers[index]!, hop, index, bySeed, hopHits[a]!);
      frontiers[index] = await boundFrontier(next, plan, context, settings.frontierLimit);
    }
  }
  return frontiers;
}

/**
 * Where a path starts: its anchor's start nodes, or, for a path without an anchor, the text top-k
 * of its start types (weighted by their share of the best text score).
 */
async function startFrontier(
  plan: Plan,
  path: PlanPath,
  index: number,
  startsOf: AnchorStarts,
  context: RetrievalContext,
  hopTextK: number,
): Promise<Frontier> {
  const frontier: Frontier = new Map();
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
    const [hits] = await searchText(context.text, [plan.restriction || plan.query], {
      limit: hopTextK,
      filter: { nodeTypes: path.startTypes },
      ...signalOf(context),
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
  return frontier;
}

/** One batched neighbour call for the frontiers of every active path, grouped by seed. */
async function neighborsBySeed(
  active: readonly ActiveHop[],
  frontiers: readonly Frontier[],
  context: RetrievalContext,
  neighborsPerSeed: number,
): Promise<Map<string, GraphNeighbor[]>> {
  const seeds = [...new Set(active.flatMap((a) => [...frontiers[a.index]!.keys()]))];
  const edgeTypes = [...new Set(active.map((a) => a.hop.edgeType))];
  const directions = new Set(active.map((a) => a.hop.direction));
  const neighbors = await context.graph.doNeighbors({
    seeds,
    edgeTypes,
    direction: directions.size === 1 ? [...directions][0]! : 'both',
    limitPerSeed: neighborsPerSeed * Math.max(1, edgeTypes.length),
    ...signalOf(context),
  });
  const bySeed = new Map<string, GraphNeighbor[]>();
  for (const n of neighbors) (bySeed.get(n.seed) ?? bySeed.set(n.seed, []).get(n.seed)!).push(n);
  return bySeed;
}

/** The text top-k of a hop's node types (none when the hop names no types). */
async function hopTextHits(
  plan: Plan,
  hop: PlanHop,
  context: RetrievalContext,
  hopTextK: number,
): Promise<IndexHit[]> {
  if (!hop.nodeTypes || hop.nodeTypes.length === 0 || hopTextK <= 0) return [];
  const [hits] = await searchText(context.text, [hop.restriction || plan.restriction || plan.query], {
    limit: hopTextK,
    filter: { nodeTypes: hop.nodeTypes },
    ...signalOf(context),
  });
  return hits ?? [];
}

/**
 * One hop of one path: the frontier's neighbours by the hop's edge type, direction and node types
 * (each keeping its best trajectory), united with the hop's text hits, which continue the
 * frontier's first trajectory at half weight.
 */
function stepFrontier(
  frontier: Frontier,
  hop: PlanHop,
  index: number,
  bySeed: ReadonlyMap<string, readonly GraphNeighbor[]>,
  hits: readonly IndexHit[],
): Frontier {
  const allowed = hop.nodeTypes ? new Set(hop.nodeTypes) : undefined;
  const next: Frontier = new Map();
  for (const [seed, from] of frontier) {
    for (const n of bySeed.get(seed) ?? []) {
      if (n.edgeType !== hop.edgeType || n.direction !== hop.direction) continue;
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
  return next;
}

/**
 * Bounded frontier: beyond `frontierLimit` nodes, keep those whose documents fit the query best
 * (one text search restricted to the frontier), then the rest in the order they were reached.
 */
async function boundFrontier(
  next: Frontier,
  plan: Plan,
  context: RetrievalContext,
  frontierLimit: number,
): Promise<Frontier> {
  if (next.size <= frontierLimit) return next;
  const ids = [...next.keys()];
  const [hits] = await searchText(context.text, [plan.query], {
    limit: frontierLimit,
    filter: { ids },
    ...signalOf(context),
  });
  const keep: Frontier = new Map();
  for (const hit of hits ?? []) keep.set(hit.id, next.get(hit.id)!);
  for (const id of ids) {
    if (keep.size >= frontierLimit) break;
    if (!keep.has(id)) keep.set(id, next.get(id)!);
  }
  return keep;
}
