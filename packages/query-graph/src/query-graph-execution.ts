import type {
  Candidate,
  EdgeDirection,
  Plan,
  RerankerV1,
  RerankOptions,
  TraverseOptions,
  TraverserV1,
} from '@weft/spec';
import { matchesExclusion } from './exclusions.ts';

/**
 * The plan's executed query-graph readings (paths with `endpoints`) as candidates: per anchor the
 * probability of its best reading that reaches the node, summed over the anchors (a node the readings
 * of two anchors reach is their intersection), ties in the order the readings ranked their endpoints
 * by the question's remaining words. No executed reading: no candidate, so that a stack fusing this
 * list first (`planFirstFusion` of `@weft/kit`) ranks as it would without it.
 */
export class QueryGraphTraverser implements TraverserV1 {
  readonly specificationVersion = 'v1';
  readonly name: string;

  constructor(options: { readonly name?: string } = {}) {
    this.name = options.name ?? 'query-graph';
  }

  async doTraverse({ plan, limit }: TraverseOptions): Promise<Candidate[]> {
    return planEndpoints(plan).slice(0, limit);
  }
}

export function planEndpoints(plan: Plan): Candidate[] {
  const byAnchor = new Map<string, Map<number, number>>();
  const position = new Map<string, number>();
  const via = new Map<string, { node: string | undefined; edgeType: string; direction: EdgeDirection }>();
  for (const path of plan.paths) {
    if (!path.endpoints) continue;
    const weight = path.confidence ?? path.score;
    const anchor = path.anchor ?? -1;
    const hop = path.hops[0];
    path.endpoints.forEach((id, rank) => {
      const best = byAnchor.get(id) ?? byAnchor.set(id, new Map()).get(id)!;
      if (weight > (best.get(anchor) ?? 0)) {
        best.set(anchor, weight);
        if (hop) via.set(id, { node: path.node, edgeType: hop.edgeType, direction: hop.direction });
      }
      position.set(id, Math.min(position.get(id) ?? rank, rank));
    });
  }
  const scored = [...byAnchor].map(([id, best]) => ({
    id,
    score: [...best.values()].reduce((a, b) => a + b, 0),
    rank: position.get(id)!,
  }));
  scored.sort((a, b) => b.score - a.score || a.rank - b.rank || a.id.localeCompare(b.id));
  return scored.map(({ id, score }) => {
    const hop = via.get(id);
    return {
      id,
      score,
      scores: { queryGraph: score },
      trajectories:
        hop?.node === undefined
          ? []
          : [
              {
                hops: [
                  { node: hop.node, via: 'anchor' as const },
                  { node: id, edgeType: hop.edgeType, direction: hop.direction, via: 'structure' as const },
                ],
              },
            ],
      source: 'query-graph',
    };
  });
}

/**
 * Holds a stack's ranking to the plan's query graph: the candidates the executed readings reach
 * first, in `planEndpoints`' order (`planFirst`, default on), the others in their order; and, when
 * the question excludes something ("(not documentation)": `Plan.exclusion`), the candidates whose
 * documents match the exclusion after all others. No executed reading and no exclusion: the ranking
 * unchanged. Last in a stack's rerankers; the readings' endpoints reach the pool through
 * `QueryGraphTraverser` (or the stack's own traversal).
 */
export class QueryGraphReranker implements RerankerV1 {
  readonly specificationVersion = 'v1';
  readonly name: string;
  private readonly planFirst: boolean;

  constructor(options: { readonly name?: string; readonly planFirst?: boolean } = {}) {
    this.name = options.name ?? 'query-graph';
    this.planFirst = options.planFirst ?? true;
  }

  async doRerank({ plan, candidates, limit, context }: RerankOptions): Promise<Candidate[]> {
    const order = new Map(
      this.planFirst ? planEndpoints(plan).map((c, rank) => [c.id, { rank, score: c.score }]) : [],
    );
    const excluded = plan.exclusion ? await excludedIds(plan.exclusion, candidates, context) : new Set();
    if (order.size === 0 && excluded.size === 0) return candidates.slice(0, limit);
    const tier = (c: Candidate) => (excluded.has(c.id) ? 2 : order.has(c.id) ? 0 : 1);
    const ranked = candidates
      .map((c, index) => ({ c, index, tier: tier(c), rank: order.get(c.id)?.rank ?? 0 }))
      .sort((a, b) => a.tier - b.tier || a.rank - b.rank || a.index - b.index)
      .slice(0, limit);
    // Scores that agree with the new order.
    return ranked.map(({ c }, i) => ({
      ...c,
      score: ranked.length - i,
      scores: order.has(c.id) ? { ...c.scores, queryGraph: order.get(c.id)!.score } : c.scores,
    }));
  }
}

async function excludedIds(
  exclusion: string,
  candidates: readonly Candidate[],
  context: RerankOptions['context'],
): Promise<Set<string>> {
  const nodes = await context.graph.doGetNodes(
    candidates.map((c) => c.id),
    context.abortSignal ? { abortSignal: context.abortSignal } : undefined,
  );
  return new Set(
    nodes.flatMap((node) =>
      node && matchesExclusion(exclusion, `${node.name} ${node.text}`) ? [node.id] : [],
    ),
  );
}
