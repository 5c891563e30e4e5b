import { runTraverserSuite } from '@weft/conformance';
import { emptyPlan } from '@weft/kit';
import {
  InMemoryGraphStore,
  InMemoryTextIndex,
  MockGraphStore,
  MockTextIndex,
  toySkb,
} from '@weft/core/test';
import type { RetrievalContext } from '@weft/spec';
import { describe, expect, it } from 'vitest';
import { TextSearchTraverser } from './text-search-traverser.ts';

runTraverserSuite({
  name: 'TextSearchTraverser',
  searchOnly: true,
  create: async () => new TextSearchTraverser(),
});

describe('TextSearchTraverser', () => {
  const skb = toySkb();
  const context: RetrievalContext = {
    schema: skb.schema,
    graph: new InMemoryGraphStore(skb),
    text: new InMemoryTextIndex(skb.nodes),
  };
  const reference = new InMemoryTextIndex(skb.nodes);

  it('returns the BM25 ranking of the target types, with one text hop per candidate', async () => {
    const query = 'Nikon telephoto lens';
    const candidates = await new TextSearchTraverser().doTraverse({
      query,
      plan: emptyPlan(query, skb.schema),
      limit: 10,
      context,
    });
    const [expected] = await reference.doSearch({
      queries: [query],
      limit: 10,
      filter: { nodeTypes: ['product'] },
    });
    expect(candidates.map((c) => [c.id, c.score])).toEqual(expected!.map((h) => [h.id, h.score]));
    // Brands match "Nikon" too but are not a target type.
    expect(candidates.every((c) => c.type === 'product')).toBe(true);
    expect(candidates[0]!.trajectories).toEqual([
      {
        hops: [
          { node: candidates[0]!.id, nodeType: 'product', textScore: candidates[0]!.score, via: 'text' },
        ],
      },
    ]);
    expect(candidates[0]!.scores).toEqual({ bm25: candidates[0]!.score });
  });

  it("searches the plan's target types when it names them, looking types up when several", async () => {
    const query = 'Nikon cameras';
    const plan = {
      ...emptyPlan(query, skb.schema),
      targetTypes: [
        { type: 'brand', score: 0.9 },
        { type: 'category', score: 0.5 },
      ],
    };
    const candidates = await new TextSearchTraverser({ resolveTypes: true }).doTraverse({
      query,
      plan,
      limit: 10,
      context,
    });
    expect(candidates.length).toBeGreaterThan(0);
    expect(new Set(candidates.map((c) => c.type))).toEqual(new Set(['brand', 'category']));
    expect(candidates.find((c) => c.id === 'b:nikon')?.type).toBe('brand');
  });

  it('searches every type when neither plan nor schema names target types, typed by the index without graph look-ups', async () => {
    const schema = { ...skb.schema, targetTypes: undefined };
    const graph = new MockGraphStore(skb);
    const query = 'Nikon';
    const candidates = await new TextSearchTraverser().doTraverse({
      query,
      plan: emptyPlan(query, schema),
      limit: 10,
      context: { ...context, schema, graph },
    });
    expect(candidates.map((c) => c.id)).toContain('b:nikon');
    // The reference index returns each hit's type: no candidate needs a graph look-up.
    expect(candidates.find((c) => c.id === 'b:nikon')?.type).toBe('brand');
    expect(graph.doGetNodesCalls).toEqual([]);
  });

  it('can search the plan restriction instead of the query', async () => {
    const plan = { ...emptyPlan('Nikon gear for wildlife', skb.schema), restriction: 'trail' };
    const candidates = await new TextSearchTraverser({ useRestriction: true }).doTraverse({
      query: plan.query,
      plan,
      limit: 10,
      context,
    });
    expect(candidates.map((c) => c.id)).toEqual(['p:trailcam']);
  });

  it('sends no type filter when the types name every node type of the schema', async () => {
    const text = new MockTextIndex({
      doSearch: (options) => options.queries.map(() => [{ id: 'p:q2', score: 1 }]),
    });
    const every = skb.schema.nodeTypes.map((type) => ({ type: type.name, score: 1 }));
    const plan = { ...emptyPlan('q', skb.schema), targetTypes: every };
    await new TextSearchTraverser().doTraverse({ query: 'q', plan, limit: 5, context: { ...context, text } });
    await new TextSearchTraverser().doTraverse({
      query: 'q',
      plan: emptyPlan('q', skb.schema),
      limit: 5,
      context: { ...context, text },
    });
    expect(text.doSearchCalls.map((call) => call.filter)).toEqual([undefined, { nodeTypes: ['product'] }]);
  });
});
