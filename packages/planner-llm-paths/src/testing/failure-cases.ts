// Test support (not a test, not built): every way a model's plan can go wrong, each with the model
// that answers so and what the planner must make of it. Run with AI SDK mocks and with cassettes.
import { MockLanguageModelV4, textResult } from '@weft/core/test';
import type { Plan } from '@weft/spec';
import { expect } from 'vitest';

export const nikonQuery = 'cameras made by Nikon for wildlife';

export const validAnswer = JSON.stringify({
  targetTypes: ['product'],
  anchors: [{ mention: 'Nikon', type: 'brand' }],
  paths: [
    {
      anchor: 'Nikon',
      hops: [{ edge: 'made_by', direction: 'in', nodeType: 'product', restriction: 'wildlife' }],
    },
  ],
  restriction: 'cameras for wildlife',
});

export interface PlanOutcome {
  readonly plan: Plan;
  readonly offline: Plan;
  readonly warnings: readonly string[];
}

export interface FailureCase {
  readonly name: string;
  readonly query: string;
  readonly model: () => MockLanguageModelV4;
  /** The stage's time limit (default 30 s). */
  readonly timeoutMs?: number;
  /** The limit while recording the cassette, when the case is about a slow answer. */
  readonly recordTimeoutMs?: number;
  readonly check: (outcome: PlanOutcome) => void;
}

const answering = (text: string) => () =>
  new MockLanguageModelV4({ doGenerate: textResult(text, { input: 320, output: 60 }) });

const fellBack = (outcome: PlanOutcome, reason: RegExp) => {
  expect(outcome.plan).toEqual(outcome.offline);
  expect(
    outcome.warnings.some((w) => reason.test(w) && /the offline plan is used/.test(w)),
    outcome.warnings.join('\n'),
  ).toBe(true);
};

export const failureCases: readonly FailureCase[] = [
  {
    name: 'a valid plan',
    query: nikonQuery,
    model: answering(validAnswer),
    check: ({ plan, warnings }) => {
      expect(warnings).toEqual([]);
      expect(plan.anchors[0]?.mention).toBe('Nikon');
      expect(plan.anchors[0]?.candidates[0]?.id).toBe('b:nikon');
      expect(plan.paths[0]).toMatchObject({
        anchor: 0,
        hops: [{ edgeType: 'made_by', direction: 'in', nodeTypes: ['product'], restriction: 'wildlife' }],
      });
      expect(plan.raw).toBe(validAnswer);
    },
  },
  {
    name: 'invalid JSON',
    query: nikonQuery,
    model: answering('{"targetTypes": ["product"], "paths": [{"anchor": "Nikon", "hops": ['),
    check: (outcome) => fellBack(outcome, /^plan paths: the answer is not valid JSON/),
  },
  {
    name: 'unknown node and edge type spellings',
    query: nikonQuery,
    model: answering(
      '```json\n{"targetType": "Products", "anchors": [{"name": "Nikon", "type": "Brands"}], "paths": [{"from": "Nikon", "hops": [{"edgeType": "MADE_BY", "direction": "incoming", "to": "Product"}]}]}\n```',
    ),
    check: ({ plan, warnings }) => {
      expect(plan.targetTypes[0]).toEqual({ type: 'product', score: 1 });
      expect(plan.paths[0]!.hops[0]).toEqual({
        edgeType: 'made_by',
        direction: 'in',
        nodeTypes: ['product'],
      });
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(
        /^plan paths: the model's plan was repaired: .*edge "MADE_BY" read as "made_by"/,
      );
    },
  },
  {
    name: 'an edge type the schema lacks',
    query: nikonQuery,
    model: answering(
      '{"anchors": [{"mention": "Nikon"}], "paths": [{"anchor": "Nikon", "hops": [{"edge": "sold_by"}]}]}',
    ),
    check: (outcome) =>
      fellBack(outcome, /no path of the model could be grounded .*"sold_by" is not an edge type/),
  },
  {
    name: 'a wrong edge direction',
    query: nikonQuery,
    model: answering(
      '{"targetTypes": ["product"], "anchors": [{"mention": "Nikon", "type": "brand"}], "paths": [{"anchor": "Nikon", "hops": [{"edge": "made_by", "direction": "out", "nodeType": "product"}]}]}',
    ),
    check: ({ plan, warnings }) => {
      expect(plan.paths[0]!.hops[0]!.direction).toBe('in');
      expect(warnings.join('\n')).toMatch(/made_by followed "in" \(the schema has it the other way round\)/);
    },
  },
  {
    name: 'an empty plan',
    query: nikonQuery,
    model: answering('{}'),
    check: (outcome) => fellBack(outcome, /the model planned no path/),
  },
  {
    name: 'an untyped mention the query does not make',
    query: nikonQuery,
    model: answering(
      '{"anchors": [{"mention": "Canon"}], "paths": [{"anchor": "Canon", "hops": [{"edge": "made_by", "direction": "in"}]}]}',
    ),
    check: (outcome) => fellBack(outcome, /mention "Canon" is not in the query and has no type; dropped/),
  },
  {
    // A model may name what the question only describes: grounded among nodes of the declared type.
    name: 'a typed mention the query does not make',
    query: nikonQuery,
    model: answering(
      '{"anchors": [{"mention": "Nikon Corporation", "type": "brand"}], "paths": [{"anchor": "Nikon Corporation", "hops": [{"edge": "made_by", "direction": "in"}]}]}',
    ),
    check: ({ plan, warnings }) => {
      expect(warnings).toEqual([]);
      expect(plan.anchors[0]?.candidates[0]).toMatchObject({ id: 'b:nikon', type: 'brand' });
      expect(plan.paths[0]).toMatchObject({ anchor: 0, hops: [{ edgeType: 'made_by', direction: 'in' }] });
    },
  },
  {
    name: 'a refusal',
    query: nikonQuery,
    model: answering("I'm sorry, but I can't help with planning that."),
    check: (outcome) => fellBack(outcome, /the model refused/),
  },
  {
    name: 'a provider error',
    query: nikonQuery,
    model: () =>
      new MockLanguageModelV4({
        doGenerate: async () => {
          throw Object.assign(new Error('Service Unavailable'), { name: 'AI_APICallError', statusCode: 503 });
        },
      }),
    check: (outcome) => fellBack(outcome, /the provider failed with HTTP 503/),
  },
  {
    name: 'a slow model',
    query: nikonQuery,
    timeoutMs: 40,
    recordTimeoutMs: 10_000,
    // Ignores the abort signal on purpose: the planner's own time limit must still hold.
    model: () =>
      new MockLanguageModelV4({
        doGenerate: () => new Promise((resolve) => setTimeout(() => resolve(textResult(validAnswer)), 400)),
      }),
    check: (outcome) => fellBack(outcome, /the model did not answer within 40 ms/),
  },
];
