import { emptyPlan } from '@weft/core';
import { InMemoryGraphStore, InMemoryTextIndex, toySkb } from '@weft/core/test';
import type { Candidate, Plan, RetrievalContext, TraverserV1 } from '@weft/spec';
import { beforeAll, describe, expect, it } from 'vitest';

export interface TraverserSuiteOptions {
  readonly name: string;
  /** Builds the traverser; it will run against `context` (reference stores over the toy SKB). */
  create(context: RetrievalContext): Promise<TraverserV1>;
  /**
   * A plain search traverser (text or vector search, no graph traversal): it must still find what the
   * planned path reaches when the documents say so, but its trajectories are single search hops, so
   * the structural-trajectory check is replaced by that one. Default false.
   */
  readonly searchOnly?: boolean;
}

/** A plan: products made by the brand the query names (Nikon), restricted to wildlife. */
export function toyNikonPlan(): Plan {
  const schema = toySkb().schema;
  return {
    ...emptyPlan('Nikon gear for wildlife', schema),
    anchors: [
      { mention: 'Nikon', candidates: [{ id: 'b:nikon', score: 1, type: 'brand' }], confidence: 0.9 },
    ],
    paths: [
      {
        anchor: 0,
        hops: [{ edgeType: 'made_by', direction: 'in', nodeTypes: ['product'], restriction: 'wildlife' }],
        score: 1,
      },
    ],
    variables: [{ name: 'p', nodeTypes: ['product'], restriction: 'wildlife' }],
    triplets: [
      {
        subject: { kind: 'variable', name: 'p' },
        edgeType: 'made_by',
        object: { kind: 'anchor', anchor: 0 },
      },
    ],
    target: 'p',
    restriction: 'wildlife',
    confidence: 0.8,
  };
}

function expectWellFormed(candidates: readonly Candidate[], limit: number) {
  expect(candidates.length).toBeLessThanOrEqual(limit);
  expect(new Set(candidates.map((c) => c.id)).size).toBe(candidates.length);
  const scores = candidates.map((c) => c.score);
  expect(scores).toEqual([...scores].sort((a, b) => b - a));
  for (const candidate of candidates) {
    expect(Number.isFinite(candidate.score)).toBe(true);
    expect(candidate.trajectories.length).toBeGreaterThan(0);
    for (const trajectory of candidate.trajectories) {
      expect(trajectory.hops.at(-1)!.node).toBe(candidate.id);
    }
  }
}

/** The `TraverserV1` contract: distinct, ordered, bounded candidates whose trajectories are real paths. */
export function runTraverserSuite(options: TraverserSuiteOptions): void {
  describe(`Traverser conformance: ${options.name}`, () => {
    const skb = toySkb();
    const graph = new InMemoryGraphStore(skb);
    const context: RetrievalContext = { schema: skb.schema, graph, text: new InMemoryTextIndex(skb.nodes) };
    let traverser: TraverserV1;
    beforeAll(async () => {
      traverser = await options.create(context);
    });

    it('declares the v1 specification', () => {
      expect(traverser.specificationVersion).toBe('v1');
      expect(traverser.name.length).toBeGreaterThan(0);
    });

    it('finds what the planned path reaches, with real edges on every trajectory', async () => {
      const candidates = await traverser.doTraverse({
        query: 'Nikon gear for wildlife',
        plan: toyNikonPlan(),
        limit: 10,
        context,
      });
      expectWellFormed(candidates, 10);
      const ids = candidates.map((c) => c.id);
      for (const id of ['p:d850', 'p:nikkor']) expect(ids).toContain(id);
      for (const candidate of candidates) {
        for (const trajectory of candidate.trajectories) {
          for (let i = 1; i < trajectory.hops.length; i++) {
            const hop = trajectory.hops[i]!;
            if (hop.via !== 'structure') continue;
            const from = trajectory.hops[i - 1]!.node;
            const neighbors = await graph.doNeighbors({
              seeds: [from],
              edgeTypes: [hop.edgeType!],
              direction: hop.direction!,
            });
            expect(neighbors.map((n) => n.node)).toContain(hop.node);
          }
        }
      }
      const structural = candidates.find((c) => c.id === 'p:d850')!;
      if (options.searchOnly) {
        for (const trajectory of candidates.flatMap((c) => c.trajectories)) {
          expect(trajectory.hops).toHaveLength(1);
          expect(['text', 'vector']).toContain(trajectory.hops[0]!.via);
        }
        return;
      }
      expect(structural.trajectories.some((t) => t.hops[0]!.node === 'b:nikon' && t.hops.length === 2)).toBe(
        true,
      );
    });

    it('honours the limit', async () => {
      const candidates = await traverser.doTraverse({
        query: 'Nikon gear for wildlife',
        plan: toyNikonPlan(),
        limit: 1,
        context,
      });
      expectWellFormed(candidates, 1);
      expect(candidates).toHaveLength(1);
    });

    it('falls back to text when the plan has no path, never throwing', async () => {
      for (const query of ['wildlife trail camera', '', '相机', 'zzzz qqqq']) {
        const candidates = await traverser.doTraverse({
          query,
          plan: emptyPlan(query, skb.schema),
          limit: 5,
          context,
        });
        expectWellFormed(candidates, 5);
      }
      const wildlife = await traverser.doTraverse({
        query: 'wildlife trail camera',
        plan: emptyPlan('wildlife trail camera', skb.schema),
        limit: 5,
        context,
      });
      expect(wildlife.map((c) => c.id)).toContain('p:trailcam');
    });
  });
}
