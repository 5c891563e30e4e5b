import type { Plan, PlanPath } from '@weft/spec';
import { describe, expect, it } from 'vitest';
import { emptyPlan } from './empty-plan.ts';
import { planEndpoints } from './plan-endpoints.ts';

const hops = [{ edgeType: 'part_meronym', direction: 'out' as const }];
const plan = (paths: PlanPath[]): Plan => ({
  ...emptyPlan('q', { name: 't', version: 1, nodeTypes: [], edgeTypes: [] }),
  paths,
});

describe('planEndpoints', () => {
  const readings = plan([
    { anchor: 0, node: 'a', hops, score: 1, confidence: 0.2, endpoints: ['x', 'y'] },
    { anchor: 0, node: 'a2', hops, score: 0.5, confidence: 0.6, endpoints: ['y'] },
    { anchor: 1, node: 'b', hops, score: 0.3, confidence: 0.1, endpoints: ['x'] },
    // Planned, not executed: no endpoints, no candidates.
    { anchor: 1, node: 'c', hops, score: 0.9, confidence: 0.9 },
  ]);

  it('weighs a reading by its probability: the best per anchor, summed over anchors', () => {
    const out = planEndpoints(readings);
    expect(out.map((e) => [e.id, Number(e.score.toFixed(2))])).toEqual([
      ['y', 0.6],
      ['x', 0.3],
    ]);
    expect(out[0]!.via).toEqual({ node: 'a2', edgeType: 'part_meronym', direction: 'out' });
  });

  it('or by its score relative to the best reading', () => {
    const out = planEndpoints(readings, { weight: 'score' });
    expect(out.map((e) => [e.id, Number(e.score.toFixed(2))])).toEqual([
      ['x', 1.3],
      ['y', 1],
    ]);
  });

  it('breaks ties by the readings’ order, then by id; no executed reading gives none', () => {
    const tied = plan([{ anchor: 0, node: 'a', hops, score: 1, endpoints: ['q', 'p', 'o'] }]);
    expect(planEndpoints(tied).map((e) => e.id)).toEqual(['q', 'p', 'o']);
    expect(planEndpoints(plan([{ anchor: 0, hops, score: 1 }]))).toEqual([]);
  });
});
