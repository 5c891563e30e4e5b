import { linkingPlanner, planProblems, runPlannerSuite } from '@weft/conformance';
import { createRetriever, retrieve } from '@weft/core';
import { artifactName, emptyPlan } from '@weft/kit';
import {
  MockCritic,
  MockLanguageModelV4,
  MockPlanner,
  MockTraverser,
  textResult,
  toyContext,
  toySkb,
} from '@weft/core/test';
import { readBankAction } from '@weft/ego-graph';
import type { ArtifactStore, Plan, PlanOptions } from '@weft/spec';
import { describe, expect, it } from 'vitest';
import { LlmHybgragPlanner } from './llm-hybgrag-planner.ts';
import { routerExamplesArtifact } from './router-examples.ts';
import type { RoutedPlan } from './route-state.ts';

const schema = toySkb().schema;
const query = 'Nikon DSLR for wildlife';

function basePlan(): Plan {
  return {
    ...emptyPlan(query, schema),
    anchors: [
      { mention: 'Nikon', confidence: 0.9, candidates: [{ id: 'b:nikon', type: 'brand', score: 1 }] },
      { mention: 'DSLR', confidence: 0.3, candidates: [{ id: 'c:dslr', type: 'category', score: 1 }] },
    ],
    paths: [{ anchor: 0, hops: [{ edgeType: 'made_by', direction: 'in' }], score: 1, confidence: 0.8 }],
    restriction: 'DSLR for wildlife',
    confidence: 0.9,
  };
}

const answering = (...texts: string[]) =>
  new MockLanguageModelV4({ doGenerate: texts.map((text) => textResult(text, { input: 300, output: 40 })) });
const promptOf = (model: MockLanguageModelV4, call = 0) =>
  JSON.stringify(model.doGenerateCalls[call]?.prompt);

async function plan(
  model: MockLanguageModelV4 | undefined,
  options: Partial<PlanOptions> = {},
  artifacts?: ArtifactStore,
) {
  const warnings: string[] = [];
  const router = new LlmHybgragPlanner({
    base: new MockPlanner({ doPlan: basePlan() }),
    ...(artifacts ? { artifact: 'hybgrag.planner-hybgrag' } : {}),
  });
  const context = {
    ...toyContext(),
    ...(model ? { languageModel: model } : {}),
    ...(artifacts ? { artifacts } : {}),
    warn: (m: string) => warnings.push(m),
  };
  const result = await router.doPlan({ query, feedback: [], context, ...options });
  return { plan: result, warnings, context };
}

const nikonAndDslr = JSON.stringify({
  module: 'hybrid',
  entities: [
    { mention: 'Nikon', relations: [{ edge: 'made_by', direction: 'in' }] },
    { mention: 'DSLR', relations: [{ edge: 'in_category', direction: 'in' }] },
  ],
  reason: 'Nikon products in the DSLR category',
});

describe('LlmHybgragPlanner on every failure mode', () => {
  it('grounds a valid action: mentions onto anchors, relations onto the schema', async () => {
    const model = answering(nikonAndDslr);
    const { plan: routed, warnings } = await plan(model);
    expect(warnings).toEqual([]);
    expect(readBankAction(routed).entities.map((e) => e.id)).toEqual(['b:nikon', 'c:dslr']);
    expect(routed.raw).toBe(nikonAndDslr);
    expect(routed.route.reason).toMatch(/^the model chose the hybrid module/);
    expect(model.doGenerateCalls).toHaveLength(1);
    // The prompt names the schema's relations and the linked mentions.
    expect(promptOf(model)).toMatch(/made_by \(product → brand\)/);
    expect(promptOf(model)).toMatch(/Nikon/);
    expect(planProblems(routed, schema)).toEqual([]);
  });

  it('invalid output: the offline route, and the trace says why', async () => {
    const { plan: routed, warnings } = await plan(
      answering('{"module": "hybrid", "entities": [{"mention": '),
    );
    expect(routed.route.reason).toMatch(/confident mention/);
    expect(warnings.some((w) => /^route: .*not valid JSON.*; the offline route is used$/.test(w))).toBe(true);
    const wrongShape = await plan(answering('{"module": "everything"}'));
    expect(wrongShape.warnings.some((w) => /does not fit the expected shape/.test(w))).toBe(true);
  });

  it('an unknown entity is dropped; with none left, the offline route decides', async () => {
    const { plan: routed, warnings } = await plan(
      answering(
        JSON.stringify({
          module: 'hybrid',
          entities: [{ mention: 'Sony', relations: [{ edge: 'made_by', direction: 'in' }] }],
        }),
      ),
    );
    expect(warnings).toContain(
      'route: the hybrid module needs an entity with a relation, and none was left (unknown entity "Sony" dropped (no node is named so)); the offline route is used',
    );
    expect(readBankAction(routed).entities.map((e) => e.id)).toEqual(['b:nikon']);
  });

  it('an entity linking missed is found by name and added as an anchor', async () => {
    const { plan: routed, warnings } = await plan(
      answering(
        JSON.stringify({
          module: 'hybrid',
          entities: [{ mention: 'Canon', relations: [{ edge: 'made_by', direction: 'in' }] }],
        }),
      ),
    );
    expect(readBankAction(routed).entities.map((e) => e.id)).toEqual(['b:canon']);
    expect(routed.anchors.map((a) => a.mention)).toEqual(['Nikon', 'DSLR', 'Canon']);
    expect(warnings.some((w) => /"Canon" was not linked; found by name/.test(w))).toBe(true);
    expect(planProblems(routed, schema)).toEqual([]);
  });

  it('repairs relation spellings and directions, and drops relations the schema lacks', async () => {
    const { plan: routed, warnings } = await plan(
      answering(
        JSON.stringify({
          module: 'hybrid',
          entities: [
            {
              mention: 'nikon',
              relations: [
                { edge: 'MadeBy', direction: 'out' },
                { edge: 'sells', direction: 'in' },
              ],
            },
          ],
        }),
      ),
    );
    expect(readBankAction(routed).entities[0]!.paths).toEqual([[{ edgeType: 'made_by', direction: 'in' }]]);
    const repaired = warnings.find((w) => w.startsWith("route: the model's action was repaired"));
    expect(repaired).toMatch(/relation "MadeBy" read as "made_by"/);
    expect(repaired).toMatch(/unknown relation "sells" dropped/);
    expect(repaired).toMatch(/turned round/);
  });

  it('the text module when the model says so', async () => {
    const { plan: routed } = await plan(answering('{"module": "text"}'));
    expect(readBankAction(routed).module).toBe('text');
  });

  it('no model: the offline route, with a warning', async () => {
    const { plan: routed, warnings } = await plan(undefined);
    expect(warnings).toEqual(['no language model is configured: the offline route is used']);
    expect(readBankAction(routed).entities.map((e) => e.id)).toEqual(['b:nikon']);
  });

  it('refines with the feedback in the prompt; a repeated action falls back to the offline refinement', async () => {
    const model = answering(nikonAndDslr, nikonAndDslr);
    const first = await plan(model);
    const feedback = [{ kind: 'no-intersection' as const, message: 'round 0: the ego-graphs share no node' }];
    const second = await plan(model, { previous: first.plan, feedback });
    expect(promptOf(model, 1)).toMatch(/round 0: the ego-graphs share no node/);
    expect(
      second.warnings.some((w) =>
        /repeated an action an earlier round tried.*the offline refinement is used/.test(w),
      ),
    ).toBe(true);
    expect(second.plan.route.reason).toMatch(/^after no-intersection: dropped the least sure entity "DSLR"/);
  });

  it('shows few-shot examples from the train split, and says when they are missing', async () => {
    const stored = new Map<string, unknown>();
    const artifacts: ArtifactStore = {
      get: async (name) => stored.get(name) as never,
      put: async (name, value) => void stored.set(name, value),
    };
    const missing = await plan(answering(nikonAndDslr), {}, artifacts);
    expect(missing.warnings.some((w) => /not found.*without few-shot examples/.test(w))).toBe(true);
    await routerExamplesArtifact.save(artifacts, 'hybgrag.planner-hybgrag', [
      {
        query: 'Which Leica cameras are compact?',
        action: {
          module: 'hybrid',
          entities: [{ mention: 'Leica', relations: [{ edge: 'made_by', direction: 'in' }] }],
        },
      },
    ]);
    const model = answering(nikonAndDslr);
    await plan(model, {}, artifacts);
    expect(promptOf(model)).toMatch(/Which Leica cameras are compact\?/);
  });
});

describe('LlmHybgragPlanner in the loop', () => {
  it('asks once per critiqued round and not on the last, which replays the best round', async () => {
    const model = answering(
      nikonAndDslr,
      JSON.stringify({
        module: 'hybrid',
        entities: [{ mention: 'Nikon', relations: [{ edge: 'made_by', direction: 'in' }] }],
      }),
      '{"module": "text"}',
    );
    const critic = new MockCritic({
      doCritique: [
        { accept: false, feedback: [{ kind: 'no-intersection', message: 'nothing shared' }] },
        { accept: false, feedback: [{ kind: 'missing-entity', message: 'DSLR left out' }] },
        { accept: false, feedback: [{ kind: 'wrong-module', message: 'text found nothing useful' }] },
      ],
    });
    const retriever = createRetriever({
      name: 'hybgrag-test',
      context: { ...toyContext(), languageModel: model },
      planner: new LlmHybgragPlanner({ base: new MockPlanner({ doPlan: basePlan() }), maxRounds: 4 }),
      traversers: [
        new MockTraverser({
          doTraverse: () => [
            {
              id: 'p:d850',
              type: 'product',
              score: 1,
              scores: {},
              trajectories: [{ hops: [{ node: 'p:d850', via: 'text' }] }],
            },
          ],
        }),
      ],
      critic,
      maxRounds: 4,
      llmBudget: 14,
    });
    const { trace } = await retrieve(retriever, { query, limit: 5 });
    expect(trace.rounds).toBe(4);
    expect(trace.llmCalls).toBe(3);
    const final = trace.plan as RoutedPlan;
    expect(final.route.reason).toBe('last round: replaying round 1, the one the critic faulted least');
    expect(final.route.history.map((h) => h.action)).toEqual([
      'hybrid: Nikon [b:nikon] ←made_by— ∩ DSLR [c:dslr] ←in_category—',
      'hybrid: Nikon [b:nikon] ←made_by—',
      'text: search the documents of the target types',
    ]);
  });
});

runPlannerSuite({
  name: 'LlmHybgragPlanner (a mock model naming Nikon)',
  prepareContext: (context) => ({
    ...context,
    languageModel: new MockLanguageModelV4({
      doGenerate: textResult(
        JSON.stringify({
          module: 'hybrid',
          entities: [{ mention: 'Nikon', relations: [{ edge: 'made_by', direction: 'in' }] }],
        }),
      ),
    }),
  }),
  create: async () =>
    new LlmHybgragPlanner({
      base: linkingPlanner({ relations: [{ edgeType: 'made_by', direction: 'in', confidence: 0.8 }] }),
      artifact: artifactName('hybgrag', 'planner-hybgrag'),
    }),
});
