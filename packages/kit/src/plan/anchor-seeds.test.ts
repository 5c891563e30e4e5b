import type { Plan } from '@weft/spec';
import { describe, expect, it } from 'vitest';
import { anchorSeeds } from './anchor-seeds.ts';
import { emptyPlan } from './empty-plan.ts';

const plan: Plan = {
  ...emptyPlan('lenses by Nikon for birds', { name: 'toy', version: 1, nodeTypes: [], edgeTypes: [] }),
  anchors: [
    {
      mention: 'Nikon',
      confidence: 0.9,
      candidates: [
        { id: 'b:nikon', type: 'brand', score: 1 },
        { id: 'p:nikon-f', type: 'product', score: 0.5 },
        { id: 'p:zero', type: 'product', score: 0 },
      ],
    },
    { mention: 'birds', confidence: 0.1, candidates: [{ id: 'b:nikon', type: 'brand', score: 0.2 }] },
    { mention: 'lenses', confidence: 0.5, candidates: [{ id: 'c:lenses', type: 'category', score: 0.8 }] },
  ],
};

describe('anchorSeeds', () => {
  it("weighs each named node by its best anchor's confidence × its link score", () => {
    expect(anchorSeeds(plan)).toEqual(
      new Map([
        ['b:nikon', 0.9],
        ['p:nikon-f', 0.45],
        ['p:zero', 0],
        ['c:lenses', 0.4],
      ]),
    );
  });

  it('skips anchors below the floor, takes the first candidates of each, and drops weight 0 when asked', () => {
    expect([...anchorSeeds(plan, { minConfidence: 0.2, perAnchor: 1 }).keys()]).toEqual([
      'b:nikon',
      'c:lenses',
    ]);
    expect([...anchorSeeds(plan, { positiveOnly: true }).keys()]).toEqual([
      'b:nikon',
      'p:nikon-f',
      'c:lenses',
    ]);
  });
});
