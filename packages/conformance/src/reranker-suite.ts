import { emptyPlan } from '@weft/kit';
import { toySkb } from '@weft/core/test';
import type { Candidate, RerankerV1, RetrievalContext } from '@weft/spec';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkStageAbort } from './check-stage-abort.ts';
import { storeContext } from './store-context.ts';

export interface RerankerSuiteOptions {
  readonly name: string;
  create(context: RetrievalContext): Promise<RerankerV1>;
  /** Adds what the reranker needs to the suite's context: a language model, artifacts. */
  readonly prepareContext?: (context: RetrievalContext) => RetrievalContext;
}

function toyCandidates(): Candidate[] {
  const products = toySkb().nodes.filter((n) => n.type === 'product');
  return products.map((node, rank) => ({
    id: node.id,
    type: node.type,
    score: products.length - rank,
    scores: { bm25: (products.length - rank) / 2, dense: (rank % 3) / 3 },
    trajectories: [
      { hops: [{ node: node.id, nodeType: node.type, textScore: 1 / (rank + 1), via: 'text' as const }] },
    ],
    source: 'test',
  }));
}

/**
 * The `RerankerV1` contract: a reordering of a subset of the input, scores agreeing with the order,
 * deterministic, and the abort contract.
 */
export function runRerankerSuite(options: RerankerSuiteOptions): void {
  describe(`Reranker conformance: ${options.name}`, () => {
    const skb = toySkb();
    const context = (options.prepareContext ?? ((c: RetrievalContext) => c))(storeContext(skb));
    const query = 'telephoto lens for wildlife';
    const plan = emptyPlan(query, skb.schema);
    let reranker: RerankerV1;
    beforeAll(async () => {
      reranker = await options.create(context);
    });

    it('returns distinct input ids only, within the limit, with ordered scores and kept trajectories', async () => {
      const input = toyCandidates();
      const output = await reranker.doRerank({ query, plan, candidates: input, limit: 5, context });
      expect(reranker.specificationVersion).toBe('v1');
      expect(output.length).toBeLessThanOrEqual(5);
      expect(output.length).toBeGreaterThan(0);
      expect(new Set(output.map((c) => c.id)).size).toBe(output.length);
      const byId = new Map(input.map((c) => [c.id, c]));
      for (const candidate of output) {
        expect(byId.has(candidate.id)).toBe(true);
        expect(candidate.trajectories).toEqual(byId.get(candidate.id)!.trajectories);
      }
      const scores = output.map((c) => c.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
    });

    it('is deterministic and does not mutate its input', async () => {
      const input = toyCandidates();
      const snapshot = JSON.stringify(input);
      const first = await reranker.doRerank({ query, plan, candidates: input, limit: 8, context });
      const second = await reranker.doRerank({ query, plan, candidates: input, limit: 8, context });
      expect(second.map((c) => c.id)).toEqual(first.map((c) => c.id));
      expect(JSON.stringify(input)).toBe(snapshot);
    });

    it('handles no candidates', async () => {
      expect(await reranker.doRerank({ query, plan, candidates: [], limit: 5, context })).toEqual([]);
    });

    it.each(['before', 'during'] as const)(
      'settles when the signal aborts %s its first store call, making no LLM call after it',
      async (moment) => {
        const input = toyCandidates();
        const ids = new Set(input.map((c) => c.id));
        await checkStageAbort({
          base: context,
          moment,
          run: (on) => reranker.doRerank({ query, plan, candidates: input, limit: 5, context: on }),
          check: (output) => {
            expect(output.length).toBeLessThanOrEqual(5);
            expect(output.every((c) => ids.has(c.id))).toBe(true);
          },
        });
      },
    );
  });
}
