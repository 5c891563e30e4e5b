import type { Plan, SkbQuery } from '@weft/spec';

/**
 * The gold anchors of a query: the node ids of `meta.anchors` (the nodes the question is about, as
 * the team's judged query sets carry them). Entries that are not node ids — WordNet's
 * `topic_and_type` template lists a node *type* as its second anchor — are left out when
 * `nodeTypes` names them. `undefined` when the query carries no gold anchors.
 */
export function goldAnchorsOf(
  query: SkbQuery,
  nodeTypes: ReadonlySet<string> = new Set(),
): readonly string[] | undefined {
  const anchors = query.meta?.anchors;
  if (!Array.isArray(anchors)) return undefined;
  const ids = anchors.filter((a): a is string => typeof a === 'string' && a !== '' && !nodeTypes.has(a));
  return ids.length > 0 ? [...new Set(ids)] : undefined;
}

/** Candidates of a plan anchor that count as linked (top-k). */
export const linkingTopK = 3;
/**
 * Plan anchors below this confidence are not counted: the field, PPR and bank traversers ignore
 * them (their `minSpecificity` default).
 */
export const defaultLinkingMinConfidence = 0.2;

/** How one plan's anchors compare with the gold anchors of its query. */
export interface QueryLinking {
  /** Gold anchors of the query. */
  readonly gold: number;
  /** Gold anchors among the top-3 candidates of some counted plan anchor. */
  readonly linked: number;
  /** Gold anchors that are the top candidate of some counted plan anchor. */
  readonly linkedTop1: number;
  /** Counted plan anchors: with a candidate, confidence ≥ the threshold. */
  readonly mentions: number;
  /** Counted plan anchors whose top candidate is a gold anchor. */
  readonly precise: number;
  /**
   * Whether a gold path (its anchor node and first hop) is among the plan's first 3 query-graph
   * readings (paths from one `node`, by score); absent when the query carries no gold paths.
   */
  readonly pathTop3?: boolean;
}

/** A gold path of a judged query (`meta.paths`): from an anchor node along typed hops. */
export interface GoldPath {
  readonly anchor: string;
  readonly hops: readonly { readonly edgeType: string; readonly direction: string }[];
}

/** The gold paths of a query (`meta.paths`), `undefined` when it carries none. */
export function goldPathsOf(query: SkbQuery): readonly GoldPath[] | undefined {
  const paths = query.meta?.paths;
  if (!Array.isArray(paths)) return undefined;
  const valid = paths.filter(
    (p): p is GoldPath =>
      typeof p === 'object' &&
      p !== null &&
      typeof (p as GoldPath).anchor === 'string' &&
      Array.isArray((p as GoldPath).hops) &&
      (p as GoldPath).hops.length > 0,
  );
  return valid.length > 0 ? valid : undefined;
}

/** Whether a gold path's anchor and first hop is among the plan's first `topK` readings. */
export function goldPathAmongReadings(
  plan: Pick<Plan, 'paths'> | undefined,
  gold: readonly GoldPath[],
  topK = linkingTopK,
): boolean {
  const readings = (plan?.paths ?? [])
    .filter((p) => p.node !== undefined)
    .sort((a, b) => b.score - a.score)
    .slice(0, topK);
  return gold.some((g) =>
    readings.some((r) => {
      const hop = r.hops[0];
      const want = g.hops[0]!;
      return (
        r.node === g.anchor &&
        hop?.edgeType === want.edgeType &&
        (want.direction === 'both' || hop.direction === want.direction)
      );
    }),
  );
}

/**
 * Compares a plan's anchors with the gold anchors. A plan anchor counts when it has a candidate and
 * its confidence is at least `minConfidence` (default 0.2, what the traversers use); a gold anchor
 * is linked when it is among the top-3 candidates of a counted anchor; an anchor is precise when its
 * top candidate is a gold anchor. A missing plan links nothing.
 */
export function anchorLinking(
  plan: Pick<Plan, 'anchors'> | undefined,
  gold: readonly string[],
  options: { readonly minConfidence?: number; readonly topK?: number } = {},
): QueryLinking {
  const minConfidence = options.minConfidence ?? defaultLinkingMinConfidence;
  const topK = options.topK ?? linkingTopK;
  const counted = (plan?.anchors ?? []).filter(
    (a) => a.candidates.length > 0 && a.confidence >= minConfidence,
  );
  const goldSet = new Set(gold);
  const inTopK = new Set(counted.flatMap((a) => a.candidates.slice(0, topK).map((c) => c.id)));
  const tops = counted.map((a) => a.candidates[0]!.id);
  const topSet = new Set(tops);
  return {
    gold: goldSet.size,
    linked: [...goldSet].filter((id) => inTopK.has(id)).length,
    linkedTop1: [...goldSet].filter((id) => topSet.has(id)).length,
    mentions: counted.length,
    precise: tops.filter((id) => goldSet.has(id)).length,
  };
}

/** Linking over the queries of a stack that carry gold anchors; shares in percent. */
export interface LinkingSummary {
  /** Queries with gold anchors. */
  readonly n: number;
  /** Share of those queries with every gold anchor linked (among a counted anchor's top 3). */
  readonly recall: number;
  /** Share with every gold anchor the top candidate of a counted anchor. */
  readonly recallTop1: number;
  /** Counted plan anchors per query. */
  readonly mentionsPerQuery: number;
  /** Share of counted plan anchors (over all queries) whose top candidate is gold; 0 when none. */
  readonly precision: number;
  /** Share of the queries with gold paths whose gold path is among the first 3 readings; absent when none has. */
  readonly pathTop3?: number;
}

export function summarizeLinking(linkings: readonly QueryLinking[]): LinkingSummary | undefined {
  const n = linkings.length;
  if (n === 0) return undefined;
  const mentions = linkings.reduce((sum, l) => sum + l.mentions, 0);
  const precise = linkings.reduce((sum, l) => sum + l.precise, 0);
  const withPaths = linkings.filter((l) => l.pathTop3 !== undefined);
  return {
    ...(withPaths.length > 0
      ? { pathTop3: (100 * withPaths.filter((l) => l.pathTop3).length) / withPaths.length }
      : {}),
    n,
    recall: (100 * linkings.filter((l) => l.linked === l.gold).length) / n,
    recallTop1: (100 * linkings.filter((l) => l.linkedTop1 === l.gold).length) / n,
    mentionsPerQuery: mentions / n,
    precision: mentions === 0 ? 0 : (100 * precise) / mentions,
  };
}
