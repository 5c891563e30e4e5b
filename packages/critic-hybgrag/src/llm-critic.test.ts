import { runCriticSuite } from '@weft/conformance';
import { emptyPlan, searchText } from '@weft/kit';
import { MockLanguageModelV4, textResult, toyContext, toySkb } from '@weft/core/test';
import { writeBankAction } from '@weft/ego-graph';
import type { Candidate, Plan, RetrievalContext } from '@weft/spec';
import { beforeAll, describe, expect, it } from 'vitest';
import { LlmCritic } from './llm-critic.ts';
import type { HybgragVerdict } from './rule-critic.ts';

const schema = toySkb().schema;
const query = 'rugged DSLR for wildlife with fast autofocus';
const base: Plan = {
  ...emptyPlan(query, schema),
  anchors: [{ mention: 'Nikon', confidence: 0.9, candidates: [{ id: 'b:nikon', type: 'brand', score: 1 }] }],
};
const plan = writeBankAction(base, {
  module: 'hybrid',
  entities: [{ anchor: 0, paths: [[{ edgeType: 'made_by', direction: 'in' }]] }],
});

const bm25 = new Map<string, number>();
beforeAll(async () => {
  const [hits = []] = await searchText(toyContext().text, [query], {
    limit: 50,
    filter: { nodeTypes: ['product'] },
  });
  for (const hit of hits) bm25.set(hit.id, hit.score);
});
const member = (id: string): Candidate => ({
  id,
  type: 'product',
  score: 3,
  scores: { bm25: bm25.get(id) ?? 0, egoGraph: 1, egoCoverage: 1 },
  trajectories: [
    {
      hops: [
        { node: 'b:nikon', nodeType: 'brand', via: 'anchor' },
        { node: id, nodeType: 'product', edgeType: 'made_by', direction: 'in', via: 'structure' },
      ],
    },
  ],
});

const answering = (...texts: string[]) =>
  new MockLanguageModelV4({ doGenerate: texts.map((text) => textResult(text, { input: 200, output: 20 })) });

async function critique(
  model: MockLanguageModelV4 | undefined,
  candidates = [member('p:d850'), member('p:d3500')],
) {
  const warnings: string[] = [];
  const context: RetrievalContext = {
    ...toyContext(),
    ...(model ? { languageModel: model } : {}),
    warn: (m) => warnings.push(m),
  };
  const verdict = (await new LlmCritic().doCritique({
    query,
    plan,
    candidates,
    round: 1,
    context,
  })) as HybgragVerdict;
  return { verdict, warnings };
}
/** The text of a call's messages, as the model read it. */
const promptOf = (model: MockLanguageModelV4, call: number) =>
  (model.doGenerateCalls[call]?.prompt ?? [])
    .flatMap((m) =>
      typeof m.content === 'string'
        ? [m.content]
        : m.content.map((part) => (part.type === 'text' ? part.text : '')),
    )
    .join('\n');

describe('LlmCritic', () => {
  it('the validator accepts: one call, shown the reasoning paths from the topic entity', async () => {
    const model = answering('{"accept": true, "reason": "the D850 is a rugged wildlife DSLR"}');
    const { verdict, warnings } = await critique(model);
    expect(verdict).toEqual({ accept: true, action: 'hybrid: Nikon [b:nikon] ←made_by—' });
    expect(warnings).toEqual([]);
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(promptOf(model, 0)).toContain(
      '[1] "Nikon D850" (product) via "Nikon" ←made_by— "Nikon D850": "Full-frame DSLR',
    );
  });

  it('the validator rejects: a separate commentor call returns the corrective feedback', async () => {
    const model = answering(
      '{"accept": false, "reason": "these are cameras of one brand, the question asks for lenses"}',
      '{"feedback": [{"kind": "incorrect-intersection", "message": "follow compatible_with to lenses"}, {"kind": "missing-entity", "message": "use the lens category", "entity": "lens"}]}',
    );
    const { verdict } = await critique(model);
    expect(verdict).toEqual({
      accept: false,
      action: 'hybrid: Nikon [b:nikon] ←made_by—',
      feedback: [
        {
          kind: 'incorrect-intersection',
          message: 'round 1 (hybrid: Nikon [b:nikon] ←made_by—): follow compatible_with to lenses',
        },
        {
          kind: 'missing-entity',
          entity: 'lens',
          message: 'round 1 (hybrid: Nikon [b:nikon] ←made_by—): use the lens category',
        },
      ],
    });
    expect(model.doGenerateCalls).toHaveLength(2);
    // The commentor sees the action, the linked mentions and why the validator rejected.
    expect(promptOf(model, 1)).toMatch(/Action taken: .*made_by/);
    expect(promptOf(model, 1)).toMatch(/b:nikon \(brand\)/);
    expect(promptOf(model, 1)).toMatch(/the question asks for lenses/);
  });

  it('an unreadable validator: the rule-based verdict, and the trace says why', async () => {
    const { verdict, warnings } = await critique(answering('I think these look fine overall.'));
    expect(verdict.accept).toBe(true);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^validate results: .*; the rule-based verdict is used$/);
  });

  it('an unreadable commentor: the rules’ feedback, else feedback on the module', async () => {
    const model = answering(
      '{"accept": false, "reason": "not lenses"}',
      '{"feedback": [{"kind": "try-harder"}]}',
    );
    const { verdict, warnings } = await critique(model);
    expect(warnings.some((w) => /^comment on results: .*; the rule-based feedback is used$/.test(w))).toBe(
      true,
    );
    // The rules have nothing against the round, so the rejection is turned into feedback on the entity.
    expect(verdict).toMatchObject({
      accept: false,
      feedback: [
        {
          kind: 'incorrect-entity',
          message:
            'round 1 (hybrid: Nikon [b:nikon] ←made_by—): the validator rejected the results (not lenses)',
        },
      ],
    });
  });

  it('repairs verdicts in other words', async () => {
    const { verdict } = await critique(answering('```json\n{"valid": true}\n```'));
    expect(verdict.accept).toBe(true);
  });

  it('no model, or no results: the rules judge without a call', async () => {
    const none = await critique(undefined);
    expect(none.verdict.accept).toBe(true);
    expect(none.warnings).toEqual(['no language model is configured: the rule-based verdict is used']);
    const model = answering('{"accept": true}');
    await critique(model, []);
    expect(model.doGenerateCalls).toHaveLength(0);
  });
});

runCriticSuite({
  name: 'LlmCritic (a mock model that rejects and comments)',
  prepareContext: (context) => ({
    ...context,
    languageModel: new MockLanguageModelV4({
      doGenerate: async ({ prompt }) =>
        textResult(
          JSON.stringify(prompt).includes('Do these results answer')
            ? '{"accept": false, "reason": "off topic"}'
            : '{"feedback": [{"kind": "wrong-module", "message": "search the text instead"}]}',
        ),
    }),
  }),
  create: async () => new LlmCritic(),
});

runCriticSuite({ name: 'LlmCritic (no model: the rules)', create: async () => new LlmCritic() });
