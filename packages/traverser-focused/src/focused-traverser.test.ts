import { runTraverserSuite, toyNikonPlan } from '@weft/conformance';
import { InMemoryGraphStore, InMemoryTextIndex, toySkb } from '@weft/core/test';
import type { Plan, RetrievalContext } from '@weft/spec';
import { describe, expect, it } from 'vitest';
import { candidateSchedule, FocusedTraverser } from './focused-traverser.ts';

runTraverserSuite({ name: 'FocusedTraverser', create: async () => new FocusedTraverser() });

describe('FocusedTraverser', () => {
  const skb = toySkb();
  const context: RetrievalContext = {
    schema: skb.schema,
    graph: new InMemoryGraphStore(skb),
    text: new InMemoryTextIndex(skb.nodes),
  };

  it('grows the per-anchor candidate count as FocusedRetriever does', () => {
    expect(candidateSchedule(30)).toEqual([1, 2, 3, 5, 8, 12, 18, 27]);
  });

  it('puts grounded answers before the text fill', async () => {
    const candidates = await new FocusedTraverser().doTraverse({
      query: 'Nikon gear for wildlife',
      plan: toyNikonPlan(),
      limit: 10,
      context,
    });
    const grounded = candidates.filter((c) => c.scores.grounded === 1).map((c) => c.id);
    expect(grounded.sort()).toEqual(['p:d3500', 'p:d850', 'p:nikkor']);
    expect(candidates.slice(0, 3).every((c) => c.scores.grounded === 1)).toBe(true);
  });

  it("weighs grounded answers by the plan's confidence when asked (an unsure offline plan)", async () => {
    // The words match a Canon body best; the plan grounds Nikon's products, the lens matching none.
    const query = 'Canon EOS camera body';
    const plan: Plan = { ...toyNikonPlan(), confidence: 0.1 };
    const scores = async (traverser: FocusedTraverser, planned: Plan = plan) => {
      const candidates = await traverser.doTraverse({ query, plan: planned, limit: 10, context });
      const of = (grounded: number) => candidates.filter((c) => c.scores.grounded === grounded);
      return { worstGrounded: Math.min(...of(1).map((c) => c.score)), bestFill: of(0)[0]!.score };
    };
    // The published merge puts every grounded answer first, however unsure the plan.
    const published = await scores(new FocusedTraverser());
    expect(published.worstGrounded).toBeGreaterThan(published.bestFill);
    const scaled = await scores(new FocusedTraverser({ alphaByConfidence: true }));
    expect(scaled.worstGrounded).toBeLessThan(scaled.bestFill);
    // 'offline-plans': the same unsure plan is scaled, but not once an LLM wrote it (`raw`).
    const offlineOnly = new FocusedTraverser({ alphaByConfidence: 'offline-plans' });
    expect(await scores(offlineOnly)).toEqual(scaled);
    expect(await scores(offlineOnly, { ...plan, raw: 'MATCH (p:product) RETURN p' })).toEqual(published);
    // Not even the best grounded answer leads by default: it meets the fill on the query's words.
    const [first] = await new FocusedTraverser({ alphaByConfidence: true }).doTraverse({
      query,
      plan,
      limit: 10,
      context,
    });
    expect(first).toMatchObject({ id: 'p:eos', scores: { grounded: 0 } });
  });

  it('trusts a sure offline plan only as far as the question describes its anchor', async () => {
    // Sure of Nikon, but nothing else in the question describes Nikon ("Japanese maker of cameras").
    const plan: Plan = { ...toyNikonPlan(), confidence: 0.9 };
    const firstOf = async (query: string) =>
      (
        await new FocusedTraverser({ alphaByConfidence: true }).doTraverse({
          query,
          plan,
          limit: 10,
          context,
        })
      )[0];
    expect(await firstOf('weatherproof motion triggered trail camera')).toMatchObject({
      id: 'p:trailcam',
      scores: { grounded: 0 },
    });
    // The same plan, the question describing its anchor: its grounded answers lead.
    expect(await firstOf('Japanese maker of cameras and optics: wildlife gear')).toMatchObject({
      scores: { grounded: 1 },
    });
  });

  it("fills with every target type for an offline plan, the asked types for an LLM's", async () => {
    const wide: RetrievalContext = {
      ...context,
      schema: { ...context.schema, targetTypes: ['product', 'category'] },
    };
    // The plan guesses the answer is a category; the words match a product.
    const plan: Plan = { ...toyNikonPlan(), targetTypes: [{ type: 'category', score: 1 }], confidence: 0.9 };
    const filled = async (raw?: string) =>
      (
        await new FocusedTraverser({ alphaByConfidence: 'offline-plans' }).doTraverse({
          query: 'Canon EOS 90D sports',
          plan: { ...plan, ...(raw ? { raw } : {}) },
          limit: 10,
          context: wide,
        })
      )
        .filter((c) => c.scores.grounded === 0)
        .map((c) => c.id);
    expect(await filled()).toContain('p:eos');
    expect(await filled('MATCH (c:category) RETURN c')).not.toContain('p:eos');
  });

  it('gives a query that is only a name the node it names first', async () => {
    const traverse = (query: string) =>
      new FocusedTraverser({ alphaByConfidence: 'offline-plans' }).doTraverse({
        query,
        plan: { ...toyNikonPlan(), query, targetTypes: [{ type: 'brand', score: 1 }] },
        limit: 10,
        context: { ...context, schema: { ...context.schema, targetTypes: ['product', 'brand'] } },
      });
    expect((await traverse('Nikon'))[0]?.id).toBe('b:nikon');
    // Otherwise the anchor is what the question builds on, never an answer.
    expect((await traverse('Nikon gear')).map((c) => c.id)).not.toContain('b:nikon');
  });

  it('intersects two anchors and relaxes when the conjunction is empty', async () => {
    const base = toyNikonPlan();
    const plan: Plan = {
      ...base,
      anchors: [
        ...base.anchors,
        { mention: 'DSLR', candidates: [{ id: 'c:dslr', score: 1, type: 'category' }], confidence: 0.9 },
      ],
      triplets: [
        ...base.triplets,
        {
          subject: { kind: 'variable', name: 'p' },
          edgeType: 'in_category',
          object: { kind: 'anchor', anchor: 1 },
        },
      ],
    };
    const both = await new FocusedTraverser().doTraverse({ query: 'Nikon DSLR', plan, limit: 10, context });
    expect(
      both
        .filter((c) => c.scores.grounded === 1)
        .map((c) => c.id)
        .sort(),
    ).toEqual(['p:d3500', 'p:d850']);
    const empty: Plan = {
      ...plan,
      triplets: [
        ...base.triplets,
        {
          subject: { kind: 'variable', name: 'p' },
          edgeType: 'made_by',
          object: { kind: 'anchor', anchor: 1 },
        },
      ],
    };
    const relaxed = await new FocusedTraverser().doTraverse({
      query: 'Nikon DSLR',
      plan: empty,
      limit: 10,
      context,
    });
    expect(
      relaxed
        .filter((c) => c.scores.grounded === 1)
        .map((c) => c.id)
        .sort(),
    ).toEqual(['p:d3500', 'p:d850', 'p:nikkor']);
  });
});
