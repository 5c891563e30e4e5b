import { emptyPlan } from '@weft/kit';
import { MockGraphStore, toyContext, toySkb } from '@weft/core/test';
import type { Plan } from '@weft/spec';
import { describe, expect, it } from 'vitest';
import { FieldTraverser } from './field-traverser.ts';
import { untrainedScore } from './untrained-score.ts';

const context = toyContext();
const plan = (query: string, anchors: Plan['anchors'] = []): Plan => ({
  ...emptyPlan(query, context.schema),
  anchors,
});
const nikon = { mention: 'Nikon', confidence: 0.9, candidates: [{ id: 'b:nikon', type: 'brand', score: 1 }] };

describe('FieldTraverser', () => {
  it('gives every candidate the document, relation-aware and dense scores, target types only', async () => {
    const candidates = await new FieldTraverser().doTraverse({
      query: 'telephoto zoom lens',
      plan: plan('telephoto zoom lens'),
      limit: 10,
      context,
    });
    expect(candidates.length).toBeGreaterThan(0);
    for (const c of candidates) {
      expect(c.type).toBe('product');
      expect(Object.keys(c.scores)).toEqual(
        expect.arrayContaining(['bm25', 'bm25Relations', 'dense', 'anchorLink']),
      );
    }
    for (let i = 1; i < candidates.length; i++)
      expect(candidates[i - 1]!.score).toBeGreaterThanOrEqual(candidates[i]!.score);
  });

  it('finds the neighbours of a named node, with the path from the mention, and scores the adjacency', async () => {
    const query = 'something from Nikon';
    const candidates = await new FieldTraverser().doTraverse({
      query,
      plan: plan(query, [nikon]),
      limit: 20,
      context,
    });
    const products = toySkb()
      .edges.filter((e) => e.type === 'made_by' && e.dst === 'b:nikon')
      .map((e) => e.src);
    for (const id of products) {
      const candidate = candidates.find((c) => c.id === id);
      expect(candidate?.scores.anchorLink).toBeCloseTo(0.9);
      // Each hop carries its own node's type: the named brand, then the product (#23: the anchor hop
      // used to carry the neighbour's type).
      expect(
        candidate?.trajectories[0]?.hops.map((h) => [h.node, h.nodeType, h.via, h.edgeType, h.direction]),
      ).toEqual([
        ['b:nikon', 'brand', 'anchor', undefined, undefined],
        [id, 'product', 'structure', 'made_by', 'in'],
      ]);
    }
    // The anchor's neighbours lead the untrained order: the query's own words match little.
    expect(products).toContain(candidates[0]!.id);
  });

  it("expands only the mentions near the question's surest one (a common word's namesakes add noise)", async () => {
    const query = 'something from Nikon, a camera';
    const canon = {
      mention: 'camera',
      confidence: 0.5,
      candidates: [{ id: 'b:canon', type: 'brand', score: 1 }],
    };
    const linked = async (options: { relativeSpecificity?: number }) =>
      (
        await new FieldTraverser(options).doTraverse({
          query,
          plan: plan(query, [nikon, canon]),
          limit: 20,
          context,
        })
      ).find((c) => c.id === 'p:eos')?.scores.anchorLink ?? 0;
    // 0.5 < 0.8 × 0.9: the weak mention's neighbour Canon EOS is not adjacent to anything expanded.
    expect(await linked({})).toBe(0);
    expect(await linked({ relativeSpecificity: 0 })).toBeCloseTo(0.5);
  });

  it('scores the candidates next to a node the question describes without naming it (neighbourText)', async () => {
    // No mention: "the maker of printers" describes Canon by its own text only.
    const query = 'a DSLR of the maker of printers';
    const traverse = (options: { describedK?: number; outsideTargetsWeight?: number }) =>
      new FieldTraverser(options).doTraverse({ query, plan: plan(query), limit: 20, context });
    const candidates = await traverse({ outsideTargetsWeight: 1 });
    const score = (id: string) => candidates.find((c) => c.id === id)?.scores.neighbourText;
    expect(score('p:eos')).toBeCloseTo(1);
    // Canon is a brand, outside the target types (products): no answer can be it, so the words
    // matching it are about what the question builds on, and by default weigh 1.5 times as much.
    expect(context.schema.targetTypes).not.toContain('brand');
    const weighted = await traverse({});
    expect(weighted.find((c) => c.id === 'p:eos')?.scores.neighbourText).toBeCloseTo(1.5);
    // Canon's lens matches no word of the question: only the dense ranking finds it, and what rests
    // on an embedder fitted per store does not count.
    expect(score('p:ef')).toBe(0);
    // Nikon's text shares only "maker": less.
    expect(score('p:d850')).toBeLessThan(1);
    expect((await traverse({ describedK: 0 })).every((c) => c.scores.neighbourText === undefined)).toBe(true);
  });

  it("prefers the described node that lies next to the question's other matches (coherence)", async () => {
    // "Japanese maker of lenses" matches Canon's text best, but only Nikon is next to the rugged,
    // weather-sealed full-frame body the rest of the question describes.
    const query = 'a rugged weather sealed full-frame DSLR from the Japanese maker of lenses';
    const candidates = await new FieldTraverser().doTraverse({
      query,
      plan: plan(query),
      limit: 20,
      context,
    });
    const score = (id: string) => candidates.find((c) => c.id === id)?.scores.neighbourText ?? 0;
    expect(score('p:d3500')).toBeGreaterThan(score('p:eos'));
  });

  it('sees adjacency from the candidate side when the named node is expanded only in part (a hub)', async () => {
    const graph = new MockGraphStore(toySkb());
    const query = 'telephoto zoom lens';
    const candidates = await new FieldTraverser({ neighborsPerNode: 1 }).doTraverse({
      query,
      plan: plan(query, [nikon]),
      limit: 20,
      context: { ...context, graph },
    });
    const nikkor = candidates.find((c) => c.id === 'p:nikkor');
    expect(nikkor?.scores.anchorLink).toBeCloseTo(0.9);
  });

  it('keeps a named node adjacent to what another mention names, never to its own mention', async () => {
    const query = 'the lens made by Nikon, the Nikkor 200-500';
    const nikkor = {
      mention: 'Nikkor 200-500',
      confidence: 0.8,
      candidates: [{ id: 'p:nikkor', type: 'product', score: 1 }],
    };
    // Both sides: from the named nodes' neighbour lists, and from the candidates' when those are cut.
    for (const neighborsPerNode of [300, 1]) {
      const candidates = await new FieldTraverser({ neighborsPerNode }).doTraverse({
        query,
        plan: plan(query, [nikon, nikkor]),
        limit: 20,
        context: { ...context, graph: new MockGraphStore(toySkb()) },
      });
      const named = candidates.find((c) => c.id === 'p:nikkor');
      expect(named?.scores.anchorSelf).toBeCloseTo(0.8);
      expect(named?.scores.anchorLink).toBeCloseTo(0.9);
      expect(named?.trajectories.map((t) => t.hops[0]!.node)).toEqual(['b:nikon']);
    }
  });

  it("joins an executed reading's endpoints to the candidates, each with the best reading's score (queryGraph)", async () => {
    const query = 'zzz unmatched words';
    const reading: Plan = {
      ...plan(query, [nikon]),
      paths: [
        {
          anchor: 0,
          node: 'b:nikon',
          hops: [{ edgeType: 'made_by', direction: 'in' }],
          score: 1,
          endpoints: ['p:nikkor'],
        },
        {
          anchor: 0,
          node: 'b:nikon',
          hops: [{ edgeType: 'made_by', direction: 'in' }],
          score: 0.4,
          endpoints: ['p:nikkor', 'p:d850'],
        },
        // A reading that was not executed (no endpoints) gives nothing.
        { anchor: 0, node: 'b:nikon', hops: [{ edgeType: 'compatible_with', direction: 'out' }], score: 0.9 },
      ],
    };
    const candidates = await new FieldTraverser().doTraverse({ query, plan: reading, limit: 20, context });
    const byId = new Map(candidates.map((c) => [c.id, c]));
    expect(byId.get('p:nikkor')!.scores.queryGraph).toBe(1);
    expect(byId.get('p:d850')!.scores.queryGraph).toBe(0.4);
    expect(byId.get('p:eos')?.scores.queryGraph ?? 0).toBe(0);
    // Two anchors' readings reaching one node add up (their intersection).
    const canon = {
      mention: 'Canon',
      confidence: 0.9,
      candidates: [{ id: 'b:canon', type: 'brand', score: 1 }],
    };
    const both: Plan = {
      ...plan(query, [nikon, canon]),
      paths: [
        {
          anchor: 0,
          node: 'b:nikon',
          hops: [{ edgeType: 'made_by', direction: 'in' }],
          score: 1,
          endpoints: ['p:nikkor', 'p:d850'],
        },
        {
          anchor: 1,
          node: 'b:canon',
          hops: [{ edgeType: 'made_by', direction: 'in' }],
          score: 0.5,
          endpoints: ['p:nikkor'],
        },
      ],
    };
    const together = await new FieldTraverser().doTraverse({ query, plan: both, limit: 20, context });
    expect(together.find((c) => c.id === 'p:nikkor')!.scores.queryGraph).toBe(1.5);
    expect(together.find((c) => c.id === 'p:d850')!.scores.queryGraph).toBe(1);
    // The readings speak through queryGraph only: a path from one node is no planned relation.
    expect(byId.get('p:nikkor')!.scores.relationMatch).toBe(0);
  });

  it('returns nothing for an empty query and uses a prepared handle without searching again', async () => {
    const traverser = new FieldTraverser();
    expect(await traverser.doTraverse({ query: ' ', plan: plan(' '), limit: 5, context })).toEqual([]);
    const prepared = traverser.doPrepare({ query: 'wildlife camera', limit: 10, context });
    const withHandle = await traverser.doTraverse({
      query: 'wildlife camera',
      plan: plan('wildlife camera'),
      limit: 10,
      context,
      prepared,
    });
    const without = await traverser.doTraverse({
      query: 'wildlife camera',
      plan: plan('wildlife camera'),
      limit: 10,
      context,
    });
    expect(withHandle).toEqual(without);
  });
});

describe('untrainedScore', () => {
  it('follows the document without a specific mention and the relation-aware document with one', () => {
    const max = { document: 10, combined: 10 };
    const textMatch = { bm25: 10, bm25Relations: 2, anchorLink: 0 };
    const relationMatch = { bm25: 2, bm25Relations: 10, anchorLink: 0 };
    expect(untrainedScore(textMatch, max, 0)).toBeGreaterThan(untrainedScore(relationMatch, max, 0));
    expect(untrainedScore(relationMatch, max, 1)).toBeGreaterThan(untrainedScore(textMatch, max, 1));
    expect(untrainedScore({ ...textMatch, anchorLink: 1 }, max, 0)).toBeGreaterThan(
      untrainedScore(textMatch, max, 0),
    );
  });
});
