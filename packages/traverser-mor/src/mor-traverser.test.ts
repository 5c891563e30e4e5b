import { runTraverserSuite, toyNikonPlan } from '@weft/conformance';
import { createRetriever, retrieve } from '@weft/core';
import {
  InMemoryGraphStore,
  type InMemorySkb,
  InMemoryTextIndex,
  MockPlanner,
  MockTextIndex,
  toySkb,
} from '@weft/core/test';
import type { Candidate, Plan, RetrievalContext } from '@weft/spec';
import { describe, expect, it } from 'vitest';
import { MorTraverser } from './mor-traverser.ts';

runTraverserSuite({ name: 'MorTraverser', create: async () => new MorTraverser() });
runTraverserSuite({
  name: 'MorTraverser (intersect)',
  create: async () => new MorTraverser({ combine: 'intersect' }),
});

const skb = toySkb();
const context: RetrievalContext = {
  schema: skb.schema,
  graph: new InMemoryGraphStore(skb),
  text: new InMemoryTextIndex(skb.nodes),
};

describe('MorTraverser', () => {
  it('ranks structural candidates that match the restriction above the rest of the set', async () => {
    const candidates = await new MorTraverser().doTraverse({
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
    const candidates = await new MorTraverser().doTraverse({
      query: 'Nikon D850',
      plan,
      limit: 50,
      context,
    });
    const ids = candidates.map((c) => c.id);
    expect(ids).toContain('p:d3500');
    expect(ids).not.toContain('p:d850');
    // Unless the query is nothing but its name: then the camera is what it asks for.
    const named = await new MorTraverser().doTraverse({
      query: 'D850',
      plan: { ...plan, query: 'D850' },
      limit: 50,
      context,
    });
    expect(named.map((c) => c.id)).toContain('p:d850');
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
    const both = await new MorTraverser({ combine: 'intersect' }).doTraverse({
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
    const union = await new MorTraverser({ combine: 'intersect' }).doTraverse({
      query: 'Nikon DSLR',
      plan: none,
      limit: 10,
      context,
    });
    expect(union.map((c) => c.id)).toContain('p:nikkor');
  });
});

describe('MorTraverser list budget', () => {
  it('keeps text matches in a short list even when the structural set alone would fill it', async () => {
    const plan = toyNikonPlan();
    const full = await new MorTraverser().doTraverse({ query: 'camera', plan, limit: 50, context });
    const structural = full.filter((c) => (c.scores.structure ?? 0) > 0);
    const textOnly = full.filter((c) => !((c.scores.structure ?? 0) > 0));
    expect(structural.length).toBeGreaterThan(0);
    expect(textOnly.length).toBeGreaterThan(0);
    // A limit no larger than the structural set still returns text-only candidates.
    const short = await new MorTraverser({ fillShare: 0.5 }).doTraverse({
      query: 'camera',
      plan,
      limit: Math.max(2, structural.length),
      context,
    });
    expect(short.some((c) => !((c.scores.structure ?? 0) > 0))).toBe(true);
  });
});

describe('MorTraverser.doPrepare', () => {
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
    const expected = await new MorTraverser().doTraverse({
      query: 'Nikon gear for wildlife',
      plan,
      limit: 10,
      context: plain.context,
    });
    const early = counted();
    const traverser = new MorTraverser();
    const prepared = traverser.doPrepare({
      query: 'Nikon gear for wildlife',
      limit: 10,
      context: early.context,
    });
    const before = early.calls();
    expect(before).toBeGreaterThan(0);
    const got = await traverser.doTraverse({
      query: 'Nikon gear for wildlife',
      plan,
      limit: 10,
      context: early.context,
      prepared,
    });
    expect(got).toEqual(expected);
    // Nothing searched twice: the prepared searches replaced the ones doTraverse would have made.
    expect(early.calls()).toBe(plain.calls());
  });
});

/** The toy SKB with every id moved under `prefix`: another store that answers the same queries. */
function movedSkb(prefix: string): InMemorySkb {
  const base = toySkb();
  return {
    schema: base.schema,
    nodes: base.nodes.map((n) => ({ ...n, id: `${prefix}${n.id}` })),
    edges: base.edges.map((e) => ({ ...e, src: `${prefix}${e.src}`, dst: `${prefix}${e.dst}` })),
  };
}

function contextOf(store: InMemorySkb): RetrievalContext {
  return {
    schema: store.schema,
    graph: new InMemoryGraphStore(store),
    text: new InMemoryTextIndex(store.nodes),
  };
}

/** `toyNikonPlan` with its anchor in a store whose ids carry `prefix`. */
function nikonPlanIn(prefix: string): Plan {
  const plan = toyNikonPlan();
  return {
    ...plan,
    anchors: plan.anchors.map((a) => ({
      ...a,
      candidates: a.candidates.map((c) => ({ ...c, id: `${prefix}${c.id}` })),
    })),
  };
}

const everyNodeIn = (candidates: readonly Candidate[], prefix: string) =>
  candidates.length > 0 &&
  candidates.every(
    (c) =>
      c.id.startsWith(prefix) && c.trajectories.every((t) => t.hops.every((h) => h.node.startsWith(prefix))),
  );

describe('MorTraverser over two stores', () => {
  const query = 'Nikon gear for wildlife';
  const first = { prefix: 'one/', context: contextOf(movedSkb('one/')) };
  const second = { prefix: 'two/', context: contextOf(movedSkb('two/')) };

  it('keeps what each preparation found with its own retrieval, whatever order they run in', async () => {
    const traverser = new MorTraverser();
    const handles = [first, second].map((store) =>
      traverser.doPrepare({ query, limit: 10, context: store.context }),
    );
    // The second store's traversal starts first: nothing prepared for the first store may reach it.
    const [two, one] = await Promise.all(
      [second, first].map((store) =>
        traverser.doTraverse({
          query,
          plan: nikonPlanIn(store.prefix),
          limit: 10,
          context: store.context,
          prepared: handles[store === first ? 0 : 1],
        }),
      ),
    );
    expect(everyNodeIn(one!, first.prefix)).toBe(true);
    expect(everyNodeIn(two!, second.prefix)).toBe(true);
    expect(one!.map((c) => c.id.slice(first.prefix.length))).toEqual(
      two!.map((c) => c.id.slice(second.prefix.length)),
    );
  });

  it("ignores a handle prepared over another store's index", async () => {
    const traverser = new MorTraverser();
    const foreign = traverser.doPrepare({ query, limit: 10, context: first.context });
    const got = await traverser.doTraverse({
      query,
      plan: nikonPlanIn(second.prefix),
      limit: 10,
      context: second.context,
      prepared: foreign,
    });
    expect(everyNodeIn(got, second.prefix)).toBe(true);
  });

  it('serves two stacks over two stores at once through the pipeline, each using its prepared searches', async () => {
    const traverser = new MorTraverser();
    const stores = [first, second].map((store) => {
      const inner = store.context.text;
      const text = new MockTextIndex({ doSearch: (options) => inner.doSearch(options) });
      return { ...store, text, context: { ...store.context, text } };
    });
    const retrievers = stores.map((store) =>
      createRetriever({
        name: `stack-${store.prefix}`,
        context: store.context,
        planner: new MockPlanner({ doPlan: () => nikonPlanIn(store.prefix) }),
        traversers: [traverser],
      }),
    );
    const [one, two] = await Promise.all(retrievers.map((r) => retrieve(r, { query, limit: 10 })));
    expect(everyNodeIn(one!.ranking, first.prefix)).toBe(true);
    expect(everyNodeIn(two!.ranking, second.prefix)).toBe(true);
    // The global search ran once per store: in doPrepare, not again in doTraverse.
    for (const { text } of stores)
      expect(text.doSearchCalls.filter((c) => c.queries[0] === query && !c.filter?.ids)).toHaveLength(1);
  });
});

describe('MorTraverser batch limits', () => {
  it('splits every text search into batches the index accepts (maxQueriesPerCall)', async () => {
    const inner = new InMemoryTextIndex(skb.nodes);
    const text = new MockTextIndex({ doSearch: (options) => inner.doSearch(options), maxQueriesPerCall: 1 });
    const narrow: RetrievalContext = { ...context, text };
    // A restriction that differs from the query makes the in-set search ask two queries.
    const plan = toyNikonPlan();
    const traverser = new MorTraverser({ frontierLimit: 1 });
    const prepared = traverser.doPrepare({ query: 'Nikon gear for wildlife', limit: 10, context: narrow });
    const got = await traverser.doTraverse({
      query: 'Nikon gear for wildlife',
      plan,
      limit: 10,
      context: narrow,
      prepared,
    });
    expect(text.doSearchCalls.length).toBeGreaterThan(0);
    for (const call of text.doSearchCalls) expect(call.queries).toHaveLength(1);
    expect(text.doSearchCalls.some((call) => call.queries[0] === plan.restriction)).toBe(true);
    const wide = await new MorTraverser({ frontierLimit: 1 }).doTraverse({
      query: 'Nikon gear for wildlife',
      plan,
      limit: 10,
      context,
    });
    expect(got).toEqual(wide);
  });
});
