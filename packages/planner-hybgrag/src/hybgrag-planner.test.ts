import { linkingPlanner, runPlannerSuite } from '@weft/conformance';
import { emptyPlan } from '@weft/kit';
import { MockPlanner, toyContext, toySkb } from '@weft/core/test';
import { readBankAction } from '@weft/ego-graph';
import type { CriticFeedback, Plan } from '@weft/spec';
import { describe, expect, it } from 'vitest';
import {
  HybgragPlanner,
  HybgragRouter,
  type HybgragRouterOptions,
  LlmHybgragPlanner,
  LlmHybgragRouter,
  type LlmHybgragRouterOptions,
} from './index.ts';
import { type RoutedPlan, roundFault } from './route-state.ts';

const schema = toySkb().schema;
const query = 'Nikon DSLR for wildlife';

/** What a trained lexical planner would say: Nikon (two namesakes) and DSLR, with planned relations. */
function basePlan(overrides: Partial<Plan> = {}): Plan {
  return {
    ...emptyPlan(query, schema),
    anchors: [
      {
        mention: 'Nikon',
        confidence: 0.9,
        candidates: [
          { id: 'p:d850', type: 'product', score: 0.7 },
          { id: 'b:nikon', type: 'brand', score: 0.6 },
        ],
      },
      { mention: 'DSLR', confidence: 0.7, candidates: [{ id: 'c:dslr', type: 'category', score: 1 }] },
      { mention: 'wildlife', confidence: 0.2, candidates: [{ id: 'c:trail', type: 'category', score: 0.4 }] },
    ],
    paths: [
      { anchor: 0, hops: [{ edgeType: 'made_by', direction: 'in' }], score: 1, confidence: 0.8 },
      { anchor: 1, hops: [{ edgeType: 'in_category', direction: 'in' }], score: 1, confidence: 0.7 },
      { anchor: 1, hops: [{ edgeType: 'subcategory_of', direction: 'in' }], score: 0.2, confidence: 0.2 },
    ],
    restriction: 'for wildlife',
    confidence: 0.95,
    ...overrides,
  };
}

const context = toyContext();
const router = (base: Plan = basePlan(), options = {}) =>
  new HybgragPlanner({ base: new MockPlanner({ doPlan: base }), ...options });
const feedback = (kind: CriticFeedback['kind'], entity?: string): CriticFeedback => ({
  kind,
  message: `test: ${kind}`,
  ...(entity ? { entity } : {}),
});

/** Runs rounds with the given feedback after each, as the pipeline would. */
async function rounds(
  r: HybgragPlanner,
  after: readonly (readonly CriticFeedback[])[],
): Promise<RoutedPlan[]> {
  const plans: RoutedPlan[] = [];
  const all: CriticFeedback[] = [];
  let previous: Plan | undefined;
  for (let i = 0; i <= after.length; i++) {
    const plan = await r.doPlan({ query, feedback: [...all], ...(previous ? { previous } : {}), context });
    plans.push(plan);
    previous = plan;
    all.push(...(after[i] ?? []));
  }
  return plans;
}

describe('HybgragPlanner, round 0', () => {
  it('routes confident mentions with planned relations to the hybrid module', async () => {
    const plan = await router().doPlan({ query, feedback: [], context });
    const action = readBankAction(plan);
    expect(action.module).toBe('hybrid');
    // Nikon's first namesake is a product, which no planned relation starts from: the brand is taken.
    expect(action.entities.map((e) => [e.id, e.paths])).toEqual([
      ['b:nikon', [[{ edgeType: 'made_by', direction: 'in' }]]],
      ['c:dslr', [[{ edgeType: 'in_category', direction: 'in' }]]],
    ]);
    // Relations below the confidence floor (subcategory_of, 0.2) and unsure mentions are left out.
    expect(plan.route).toMatchObject({ round: 0, history: [], feedbackSeen: 0 });
    expect(plan.route.action).toBe('hybrid: Nikon [b:nikon] ←made_by— ∩ DSLR [c:dslr] ←in_category—');
    expect(action.entities[0]!.relationConfidence).toBe(0.8);
  });

  it('routes to the text module when the plan expects no relation, or no mention is sure', async () => {
    const unrelated = await router(basePlan({ confidence: 0.2 })).doPlan({ query, feedback: [], context });
    expect(readBankAction(unrelated).module).toBe('text');
    expect(unrelated.route.reason).toMatch(/unrelated/);
    const unsure = await router(basePlan(), { minAnchorConfidence: 0.95 }).doPlan({
      query,
      feedback: [],
      context,
    });
    expect(readBankAction(unsure).module).toBe('text');
    // The anchors stay in the plan, for the critic.
    expect(unsure.anchors).toHaveLength(3);
  });

  it('uses every relation the schema allows when the base planner plans none (untrained)', async () => {
    const plan = await router(basePlan({ paths: [] })).doPlan({ query, feedback: [], context });
    const nikon = readBankAction(plan).entities[0]!;
    expect(nikon.id).toBe('p:d850');
    expect(nikon.paths.map((p) => `${p[0]!.edgeType}|${p[0]!.direction}`)).toEqual([
      'compatible_with|in',
      'compatible_with|out',
      'in_category|out',
      'made_by|out',
    ]);
  });

  it('writes the graph module for stores without documents', async () => {
    const plan = await router(basePlan(), { structuralModule: 'graph' }).doPlan({
      query,
      feedback: [],
      context,
    });
    expect(readBankAction(plan).module).toBe('graph');
    expect(plan.restriction).toBe('');
  });
});

describe('HybgragPlanner, refining with feedback', () => {
  it('drops the least sure entity after no-intersection', async () => {
    const [, second] = await rounds(router(), [[feedback('no-intersection')]]);
    // Nikon's brand is linked at 0.9 × 0.6, DSLR at 0.7 × 1: Nikon goes.
    expect(readBankAction(second!).entities.map((e) => e.id)).toEqual(['c:dslr']);
    expect(second!.route.reason).toMatch(/^after no-intersection: dropped the least sure entity "Nikon"/);
    expect(second!.route.history[0]).toMatchObject({ round: 0, feedback: [feedback('no-intersection')] });
  });

  it('tries the next namesake of a wrong entity, else drops it', async () => {
    const base = basePlan({
      anchors: [
        {
          mention: 'Nikon',
          confidence: 0.9,
          candidates: [
            { id: 'b:nikon', type: 'brand', score: 1 },
            { id: 'b:canon', type: 'brand', score: 0.5 },
          ],
        },
      ],
      paths: [{ anchor: 0, hops: [{ edgeType: 'made_by', direction: 'in' }], score: 1, confidence: 0.8 }],
    });
    const plans = await rounds(router(base, { maxRounds: 5 }), [
      [feedback('incorrect-entity', 'b:nikon')],
      [feedback('incorrect-entity', 'b:canon')],
    ]);
    expect(plans.map((p) => readBankAction(p).entities.map((e) => e.id))).toEqual([
      ['b:nikon'],
      ['b:canon'],
      [],
    ]);
    expect(readBankAction(plans[2]!).module).toBe('text');
  });

  it('switches modules on wrong-module, and adds an entity on missing-entity', async () => {
    const [, text] = await rounds(router(), [[feedback('wrong-module')]]);
    expect(readBankAction(text!).module).toBe('text');
    const unrelated = router(basePlan({ confidence: 0.2 }));
    const [first, hybrid] = await rounds(unrelated, [[feedback('missing-entity', 'b:nikon')]]);
    expect(readBankAction(first!).module).toBe('text');
    expect(readBankAction(hybrid!).entities.map((e) => e.id)).toEqual(['b:nikon']);
  });

  it('never repeats an action: with nothing new left, it replays the best round', async () => {
    const plans = await rounds(router(basePlan(), { maxRounds: 6 }), [
      [feedback('wrong-module')],
      [feedback('wrong-module')],
      [feedback('wrong-module')],
    ]);
    const keys = plans.map((p) => p.route.action);
    expect(keys[0]).toMatch(/^hybrid/);
    expect(keys[1]).toMatch(/^text/);
    // text → hybrid would repeat round 0: nothing new to try.
    expect(plans[2]!.route.reason).toMatch(/^nothing left to try: replaying round 0/);
  });

  it('on the last round, replays the round the critic faulted least', async () => {
    const plans = await rounds(router(), [
      [feedback('no-intersection'), feedback('incorrect-entity', 'c:dslr')],
      [feedback('missing-entity')],
      [feedback('wrong-module')],
    ]);
    expect(plans.map((p) => p.route.round)).toEqual([0, 1, 2, 3]);
    expect(plans[3]!.route.history.map((h) => roundFault(h.feedback))).toEqual([5, 1, 2]);
    expect(plans[3]!.route.reason).toBe('last round: replaying round 1, the one the critic faulted least');
    expect(plans[3]!.route.action).toBe(plans[1]!.route.action);
  });

  it('on the last round, prefers the untried text module to rounds faulted for a wrong action', async () => {
    const after = [[feedback('no-intersection')], [feedback('incorrect-intersection')]];
    const plans = await rounds(router(basePlan(), { maxRounds: 3 }), after);
    expect(plans.slice(0, 2).map((p) => readBankAction(p).module)).toEqual(['hybrid', 'hybrid']);
    expect(readBankAction(plans[2]!).module).toBe('text');
    expect(plans[2]!.route.reason).toBe(
      'last round: every round was faulted (least: round 1, 2): the untried text module',
    );
    const replaying = await rounds(
      router(basePlan(), { maxRounds: 3, untriedTextFault: Number.POSITIVE_INFINITY }),
      after,
    );
    expect(replaying[2]!.route.reason).toBe(
      'last round: replaying round 1, the one the critic faulted least',
    );
    expect(replaying[2]!.route.action).toBe(replaying[1]!.route.action);
  });

  it('asks the base planner once per round, with no feedback, and needs one', async () => {
    const base = new MockPlanner({ doPlan: basePlan() });
    const r = new HybgragPlanner({ base });
    await rounds(r, [[feedback('wrong-module')]]);
    expect(base.doPlanCalls.map((c) => c.feedback.length)).toEqual([0, 0]);
    expect(() => new HybgragPlanner({} as never)).toThrow(/needs \{ base \}/);
  });
});

runPlannerSuite({
  name: 'HybgragPlanner (over a linking planner)',
  create: async () =>
    new HybgragPlanner({
      base: linkingPlanner({ relations: [{ edgeType: 'made_by', direction: 'in', confidence: 0.8 }] }),
      minAnchorConfidence: 0.4,
    }),
});

describe('the deprecated names', () => {
  it('HybgragRouter and LlmHybgragRouter are the planners, so code written against them keeps compiling and running', () => {
    const base = new MockPlanner({ doPlan: basePlan() });
    const options: HybgragRouterOptions = { base };
    const offline: HybgragRouter = new HybgragRouter(options);
    const llmOptions: LlmHybgragRouterOptions = { base };
    const llm: LlmHybgragRouter = new LlmHybgragRouter(llmOptions);
    expect(offline).toBeInstanceOf(HybgragPlanner);
    expect(llm).toBeInstanceOf(LlmHybgragPlanner);
    expect(llm).toBeInstanceOf(HybgragRouter);
  });
});
