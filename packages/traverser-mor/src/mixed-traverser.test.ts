import { runTraverserSuite, toyNikonPlan } from '@internal/conformance';
import { InMemoryGraphStore, InMemoryTextIndex, toySkb } from '@weft/core/test';
import type { RetrievalContext } from '@weft/spec';
import { describe, expect, it } from 'vitest';
import { MixedTraverser } from './mixed-traverser.ts';

runTraverserSuite({ name: 'MixedTraverser', create: async () => new MixedTraverser() });
runTraverserSuite({
  name: 'MixedTraverser (intersect)',
  create: async () => new MixedTraverser({ combine: 'intersect' }),
});

const skb = toySkb();
const context: RetrievalContext = {
  schema: skb.schema,
  graph: new InMemoryGraphStore(skb),
  text: new InMemoryTextIndex(skb.nodes),
};

describe('MixedTraverser', () => {
  it('ranks structural candidates that match the restriction above the rest of the set', async () => {
    const candidates = await new MixedTraverser().doTraverse({
      query: 'Nikon gear for wildlife',
      plan: toyNikonPlan(),
      limit: 10,
      context,
    });
    const ids = candidates.map((c) => c.id);
    expect(ids.indexOf('p:d850')).toBeLessThan(ids.indexOf('p:d3500'));
    expect(candidates.find((c) => c.id === 'p:d850')!.scores.structure).toBeGreaterThan(0);
  });

  it("never returns the plan's own anchors, neither from its paths nor from the text fill", async () => {
    const base = toyNikonPlan();
    // From a camera to its maker and back to the maker's products: the camera itself is reachable.
    const plan = {
      ...base,
      anchors: [
        { mention: 'D850', candidates: [{ id: 'p:d850', score: 1, type: 'product' }], confidence: 0.9 },
      ],
      paths: [
        {
          anchor: 0,
          hops: [
            { edgeType: 'made_by', direction: 'out' as const },
            { edgeType: 'made_by', direction: 'in' as const },
          ],
          score: 1,
        },
      ],
      triplets: [],
    };
    const candidates = await new MixedTraverser().doTraverse({
      query: 'Nikon D850',
      plan,
      limit: 50,
      context,
    });
    const ids = candidates.map((c) => c.id);
    expect(ids).toContain('p:d3500');
    expect(ids).not.toContain('p:d850');
  });

  it('intersects the paths of two anchors, falling back to the union when they share nothing', async () => {
    const base = toyNikonPlan();
    const plan = {
      ...base,
      anchors: [
        ...base.anchors,
        { mention: 'DSLR', candidates: [{ id: 'c:dslr', score: 1, type: 'category' }], confidence: 0.9 },
      ],
      paths: [
        ...base.paths,
        { anchor: 1, hops: [{ edgeType: 'in_category', direction: 'in' as const }], score: 1 },
      ],
    };
    const both = await new MixedTraverser({ combine: 'intersect' }).doTraverse({
      query: 'Nikon DSLR',
      plan,
      limit: 3,
      context,
    });
    expect(
      both
        .slice(0, 2)
        .map((c) => c.id)
        .sort(),
    ).toEqual(['p:d3500', 'p:d850']);
    const none = {
      ...plan,
      paths: [
        base.paths[0]!,
        { anchor: 1, hops: [{ edgeType: 'made_by', direction: 'in' as const }], score: 1 },
      ],
    };
    const union = await new MixedTraverser({ combine: 'intersect' }).doTraverse({
      query: 'Nikon DSLR',
      plan: none,
      limit: 10,
      context,
    });
    expect(union.map((c) => c.id)).toContain('p:nikkor');
  });
});

describe('MixedTraverser list budget', () => {
  it('keeps text matches in a short list even when the structural set alone would fill it', async () => {
    const plan = toyNikonPlan();
    const full = await new MixedTraverser().doTraverse({ query: 'camera', plan, limit: 50, context });
    const structural = full.filter((c) => (c.scores.structure ?? 0) > 0);
    const textOnly = full.filter((c) => !((c.scores.structure ?? 0) > 0));
    expect(structural.length).toBeGreaterThan(0);
    expect(textOnly.length).toBeGreaterThan(0);
    // A limit no larger than the structural set still returns text-only candidates.
    const short = await new MixedTraverser({ fillShare: 0.5 }).doTraverse({
      query: 'camera',
      plan,
      limit: Math.max(2, structural.length),
      context,
    });
    expect(short.some((c) => !((c.scores.structure ?? 0) > 0))).toBe(true);
  });
});

describe('MixedTraverser.doPrepare', () => {
  it('starts the global searches before the plan exists, and doTraverse reuses them', async () => {
    const counted = (): { context: RetrievalContext; calls: () => number } => {
      const text = new InMemoryTextIndex(skb.nodes);
      let calls = 0;
      const search = text.doSearch.bind(text);
      text.doSearch = (options) => {
        calls++;
        return search(options);
      };
      return { context: { ...context, text }, calls: () => calls };
    };
    const plan = toyNikonPlan();
    const plain = counted();
    const expected = await new MixedTraverser().doTraverse({
      query: 'Nikon gear for wildlife',
      plan,
      limit: 10,
      context: plain.context,
    });
    const early = counted();
    const traverser = new MixedTraverser();
    traverser.doPrepare({ query: 'Nikon gear for wildlife', limit: 10, context: early.context });
    const before = early.calls();
    expect(before).toBeGreaterThan(0);
    const got = await traverser.doTraverse({
      query: 'Nikon gear for wildlife',
      plan,
      limit: 10,
      context: early.context,
    });
    expect(got).toEqual(expected);
    // Nothing searched twice: the prepared searches replaced the ones doTraverse would have made.
    expect(early.calls()).toBe(plain.calls());
  });
});
