import { searchText, withTextField } from '@weft/kit';
import type { Plan, PlanPath, RetrievalContext } from '@weft/spec';

export interface ExecuteModelPlanOptions {
  /** Start from an anchor's candidates scoring at least this fraction of its best (default 0.6, MoR's) ... */
  readonly startRatio?: number;
  /** ... and at most this many of them (default 3). */
  readonly maxStarts?: number;
  /**
   * Most nodes a hop may reach (default 2000, FocusedRetriever's `maxDomain`): a path that reaches
   * more no longer constrains the answers, and its anchor is left out of the execution.
   */
  readonly maxDomain?: number;
  /** The text field the endpoints are ranked by where the store has it (default: the document). */
  readonly field?: string;
}

/**
 * Executes a trusted model plan on the graph, as FocusedRetriever grounds a model's Cypher: each
 * anchored path is followed hop by hop along its edge types, directions and node types (every
 * neighbour, no text hops), and the answers are the nodes the paths of every anchor reach (their
 * intersection), ranked by `text`: what the answer's own text should say (the plan's restriction).
 * They become the `endpoints` of the anchored paths, which `QueryGraphTraverser` adds to the
 * candidates and `QueryGraphReranker` ranks first.
 *
 * A plan that is not fully right keeps its own traversal: when no path reaches anything, or the
 * anchors' paths share no node (one of them is wrong), the plan is returned as it is. An anchor
 * whose paths reach nothing, or more than `maxDomain` nodes at some hop, does not constrain.
 */
export async function executeModelPlan(
  plan: Plan,
  text: string,
  context: RetrievalContext,
  options: ExecuteModelPlanOptions = {},
): Promise<Plan> {
  const startRatio = options.startRatio ?? 0.6;
  const maxStarts = options.maxStarts ?? 3;
  const maxDomain = options.maxDomain ?? 2000;
  const signal = context.abortSignal ? { abortSignal: context.abortSignal } : {};
  const reachedByAnchor = new Map<number, Set<string>>();
  const followed = await Promise.all(
    plan.paths.map(async (path) => {
      if (path.anchor === undefined || path.hops.length === 0) return undefined;
      const anchor = plan.anchors[path.anchor];
      const best = anchor?.candidates[0]?.score ?? 0;
      const starts = (anchor?.candidates ?? [])
        .filter((c) => c.score >= best * startRatio)
        .slice(0, maxStarts)
        .map((c) => c.id);
      if (starts.length === 0) return undefined;
      return { anchor: path.anchor, reached: await followPath(path, starts, context, maxDomain, signal) };
    }),
  );
  for (const one of followed) {
    if (!one?.reached || one.reached.size === 0) continue;
    const set =
      reachedByAnchor.get(one.anchor) ?? reachedByAnchor.set(one.anchor, new Set()).get(one.anchor)!;
    for (const id of one.reached) set.add(id);
  }
  const sets = [...reachedByAnchor.values()];
  if (sets.length === 0) return plan;
  const answers = [...sets[0]!].filter((id) => sets.every((s) => s.has(id)));
  if (answers.length === 0) return plan;
  const [hits = []] = await searchText(withTextField(context, options.field).text, [text], {
    limit: answers.length,
    filter: { ids: answers },
    ...signal,
  });
  const rank = new Map(hits.map((hit, i) => [hit.id, i]));
  const endpoints = answers.sort(
    (a, b) => (rank.get(a) ?? Infinity) - (rank.get(b) ?? Infinity) || a.localeCompare(b),
  );
  return {
    ...plan,
    paths: plan.paths.map(
      (path): PlanPath =>
        path.anchor !== undefined && reachedByAnchor.has(path.anchor) && path.hops.length > 0
          ? {
              ...path,
              // One hop: the endpoints' trajectory is that hop from the anchor's best sense.
              ...(path.hops.length === 1 && plan.anchors[path.anchor]?.candidates[0]
                ? { node: plan.anchors[path.anchor]!.candidates[0]!.id }
                : {}),
              endpoints,
            }
          : path,
    ),
  };
}

/** The nodes a path reaches from its start nodes (the starts left out), or none past `maxDomain`. */
async function followPath(
  path: PlanPath,
  starts: readonly string[],
  context: RetrievalContext,
  maxDomain: number,
  signal: { readonly abortSignal?: AbortSignal },
): Promise<Set<string>> {
  let frontier = [...starts];
  for (const hop of path.hops) {
    const allowed = hop.nodeTypes && hop.nodeTypes.length > 0 ? new Set(hop.nodeTypes) : undefined;
    const next = await context.graph.doNeighbors({
      seeds: frontier,
      edgeTypes: [hop.edgeType],
      direction: hop.direction,
      limitPerSeed: maxDomain + 1,
      ...signal,
    });
    const nodes = new Set(
      next
        .filter((n) => n.edgeType === hop.edgeType && n.direction === hop.direction)
        .filter((n) => !allowed || allowed.has(n.nodeType))
        .map((n) => n.node),
    );
    if (nodes.size === 0 || nodes.size > maxDomain) return new Set();
    frontier = [...nodes];
  }
  const startSet = new Set(starts);
  return new Set(frontier.filter((id) => !startSet.has(id)));
}
