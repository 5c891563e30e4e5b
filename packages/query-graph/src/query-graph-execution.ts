import { planEndpoints } from '@weft/kit';
import type { Candidate, Plan, RerankerV1, RerankOptions, TraverseOptions, TraverserV1 } from '@weft/spec';
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
    return endpointCandidates(plan).slice(0, limit);
  }
}

/** The plan's executed readings' endpoints as candidates, best first (`planEndpoints` of `@weft/kit`). */
export function endpointCandidates(plan: Plan): Candidate[] {
  return planEndpoints(plan).map(({ id, score, via }) => ({
    id,
    score,
    scores: { queryGraph: score },
    trajectories: via
      ? [
          {
            hops: [
              { node: via.node, via: 'anchor' as const },
              { node: id, edgeType: via.edgeType, direction: via.direction, via: 'structure' as const },
            ],
          },
        ]
      : [],
    source: 'query-graph',
  }));
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
      this.planFirst ? planEndpoints(plan).map((e, rank) => [e.id, { rank, score: e.score }]) : [],
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
