import { runTraverserSuite, toyNikonPlan } from '@weft/conformance';
import { emptyPlan } from '@weft/kit';
import { toyContext } from '@weft/core/test';
import type { Plan } from '@weft/spec';
import { describe, expect, it } from 'vitest';
import { PprTraverser } from './ppr-traverser.ts';

runTraverserSuite({ name: 'PprTraverser', create: async () => new PprTraverser() });

describe('PprTraverser', () => {
  const context = toyContext({ vectors: false });

  it('walks from the named brand to its products, the strongest path starting at the anchor', async () => {
    const candidates = await new PprTraverser({ textSeeds: 0 }).doTraverse({
      query: 'Nikon gear',
      plan: toyNikonPlan(),
      limit: 10,
      context,
    });
    const ids = candidates.map((c) => c.id);
    // Only made_by is planned: Nikon's three products, nothing of Canon's or Leica's.
    expect(new Set(ids)).toEqual(new Set(['p:d850', 'p:d3500', 'p:nikkor']));
    for (const candidate of candidates) {
      expect(candidate.scores.ppr).toBe(candidate.score);
      const hops = candidate.trajectories[0]!.hops;
      expect(hops[0]).toMatchObject({ node: 'b:nikon', via: 'anchor' });
      expect(hops[1]).toMatchObject({
        node: candidate.id,
        edgeType: 'made_by',
        direction: 'in',
        via: 'structure',
      });
    }
    expect(candidates.map((c) => c.score)).toEqual([...candidates.map((c) => c.score)].sort((a, b) => b - a));
  });

  it('follows every relation when the plan names none, and leaves out the named node', async () => {
    const plan: Plan = { ...toyNikonPlan(), paths: [] };
    const candidates = await new PprTraverser({ textSeeds: 0 }).doTraverse({
      query: 'Nikon gear',
      plan,
      limit: 20,
      context,
    });
    const ids = candidates.map((c) => c.id);
    expect(ids).not.toContain('b:nikon');
    // Two hops away over in_category and compatible_with: reached only when every type is followed.
    expect(ids).toContain('p:eos');
    const nikon = new Set(['p:d850', 'p:d3500', 'p:nikkor']);
    expect(nikon.has(ids[0]!)).toBe(true);
  });

  it('seeds from the text alone when the query names nothing', async () => {
    const query = 'motion triggered trail camera';
    const candidates = await new PprTraverser().doTraverse({
      query,
      plan: emptyPlan(query, context.schema),
      limit: 5,
      context,
    });
    expect(candidates[0]!.id).toBe('p:trailcam');
    expect(candidates[0]!.trajectories[0]!.hops[0]).toMatchObject({ node: 'p:trailcam', via: 'text' });
  });
});
