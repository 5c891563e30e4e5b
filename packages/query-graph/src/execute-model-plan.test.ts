import { toyContext } from '@weft/core/test';
import type { Anchor, Plan, PlannerV1 } from '@weft/spec';
import { describe, expect, it } from 'vitest';
import { executeModelPlan } from './execute-model-plan.ts';
import { QueryGraphPlanner } from './query-graph-planner.ts';

const anchor = (mention: string, id: string, type: string): Anchor => ({
  mention,
  confidence: 1,
  candidates: [{ id, type, score: 1 }],
});

/** A plan as a model writes it (`raw`): Nikon's products, and DSLRs. */
function modelPlan(overrides: Partial<Plan> = {}): Plan {
  return {
    query: 'light and simple Nikon DSLR (not telephoto)',
    targetTypes: [{ type: 'product', score: 1 }],
    anchors: [anchor('Nikon', 'b:nikon', 'brand'), anchor('DSLR', 'c:dslr', 'category')],
    paths: [
      { anchor: 0, hops: [{ edgeType: 'made_by', direction: 'in', nodeTypes: ['product'] }], score: 1 },
      { anchor: 1, hops: [{ edgeType: 'in_category', direction: 'in', nodeTypes: ['product'] }], score: 0.8 },
    ],
    triplets: [],
    restriction: 'light and simple',
    confidence: 0.9,
    raw: '{}',
    ...overrides,
  } as Plan;
}

describe('executeModelPlan', () => {
  it("makes the nodes every anchor's paths reach the endpoints, ranked by the restriction", async () => {
    const executed = await executeModelPlan(modelPlan(), 'light and simple', toyContext());
    // Nikon's products ∩ the DSLRs; the entry-level one is the light and simple one.
    expect(executed.paths.map((p) => p.endpoints)).toEqual([
      ['p:d3500', 'p:d850'],
      ['p:d3500', 'p:d850'],
    ]);
    expect(executed.paths[0]!.node).toBe('b:nikon');
  });

  it('leaves a plan whose anchors reach no common node as it is (the mixed traversal ranks it)', async () => {
    const plan = modelPlan({
      anchors: [anchor('Nikon', 'b:nikon', 'brand'), anchor('Trail', 'c:trail', 'category')],
    });
    expect(await executeModelPlan(plan, 'light and simple', toyContext())).toBe(plan);
  });

  it('lets an anchor whose path reaches nothing not constrain, and a plan that reaches nothing stand', async () => {
    const wrongRelation = modelPlan({
      paths: [
        { anchor: 0, hops: [{ edgeType: 'made_by', direction: 'in', nodeTypes: ['product'] }], score: 1 },
        { anchor: 1, hops: [{ edgeType: 'made_by', direction: 'in', nodeTypes: ['product'] }], score: 0.8 },
      ],
    });
    const executed = await executeModelPlan(wrongRelation, 'telephoto zoom lens', toyContext());
    expect(executed.paths[0]!.endpoints?.[0]).toBe('p:nikkor');
    expect(new Set(executed.paths[0]!.endpoints)).toEqual(new Set(['p:d850', 'p:d3500', 'p:nikkor']));
    expect(executed.paths[1]!.endpoints).toBeUndefined();
    const nothing = modelPlan({ paths: [wrongRelation.paths[1]!] });
    expect(await executeModelPlan(nothing, 'light', toyContext())).toBe(nothing);
  });
});

describe('QueryGraphPlanner with executeModelPlans', () => {
  const base = (plan: Plan): PlannerV1 => ({
    specificationVersion: 'v1',
    name: 'model',
    doPlan: async () => plan,
  });

  it("executes a trusted model plan, with the question's exclusion, and leaves it alone without the option", async () => {
    const plan = modelPlan();
    const options = { query: plan.query, feedback: [], context: toyContext() };
    const executed = await new QueryGraphPlanner({
      base: base(plan),
      keepModelPlans: true,
      executeModelPlans: true,
    }).doPlan(options);
    expect(executed.paths[0]!.endpoints).toEqual(['p:d3500', 'p:d850']);
    expect(executed.exclusion).toBe('telephoto');
    const kept = await new QueryGraphPlanner({ base: base(plan), keepModelPlans: true }).doPlan(options);
    expect(kept).toBe(plan);
  });
});
