import { LlmMeter, meterLanguageModel } from '@weft/core';
import { linkingPlanner, storeContext } from '@weft/conformance';
import { MockLanguageModelV4, textResult, toySkb, memoryArtifacts } from '@weft/core/test';
import type { RetrievalContext } from '@weft/spec';
import { describe, expect, it } from 'vitest';
import { LlmPathPlanner } from './llm-path-planner.ts';
import { llmPathPlannerArtifact } from './path-planner-artifact.ts';
import { nikonQuery, validAnswer } from './testing/failure-cases.ts';

function setup(extra: Partial<RetrievalContext> = {}) {
  const model = new MockLanguageModelV4({ doGenerate: textResult(validAnswer) });
  const warnings: string[] = [];
  const context: RetrievalContext = {
    ...storeContext(toySkb()),
    languageModel: model,
    warn: (message) => warnings.push(message),
    ...extra,
  };
  return { model, warnings, context };
}

describe('LlmPathPlanner: when the model is asked', () => {
  it('unsure: asks below the threshold only', async () => {
    const { model, context } = setup();
    const planner = (confidence: number) =>
      new LlmPathPlanner({ fallback: linkingPlanner({ confidence }), threshold: 0.6 });
    const confident = await planner(0.8).doPlan({ query: nikonQuery, feedback: [], context });
    expect(model.doGenerateCalls).toHaveLength(0);
    expect(confident.raw).toBeUndefined();
    const unsure = await planner(0.4).doPlan({ query: nikonQuery, feedback: [], context });
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(unsure.raw).toBe(validAnswer);
  });

  it('unsure: reads the threshold learned on val from the artifact, else warns and uses the default 0.5', async () => {
    const artifacts = memoryArtifacts();
    const { model, warnings, context } = setup({ artifacts });
    const planner = new LlmPathPlanner({
      fallback: linkingPlanner({ confidence: 0.45 }),
      artifact: 'mor.planner-llm-paths',
    });
    await planner.doPlan({ query: nikonQuery, feedback: [], context });
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /artifact "mor.planner-llm-paths" not found.*the default threshold 0.5 decides/,
    );

    const trained = memoryArtifacts();
    await llmPathPlannerArtifact.save(trained, 'mor.planner-llm-paths', {
      threshold: 0.3,
      examples: [],
      val: { queries: 10, offlineFailures: 3, callRate: 0.2, failuresCaught: 2 },
    });
    const second = setup({ artifacts: trained });
    await planner.doPlan({ query: nikonQuery, feedback: [], context: second.context });
    expect(second.model.doGenerateCalls).toHaveLength(0);
    expect(second.warnings).toEqual([]);
  });

  it('always asks, never does not, and critic feedback makes unsure ask', async () => {
    const { model, context } = setup();
    await new LlmPathPlanner({ fallback: linkingPlanner({ confidence: 0.99 }), when: 'always' }).doPlan({
      query: nikonQuery,
      feedback: [],
      context,
    });
    await new LlmPathPlanner({ fallback: linkingPlanner({ confidence: 0.01 }), when: 'never' }).doPlan({
      query: nikonQuery,
      feedback: [],
      context,
    });
    expect(model.doGenerateCalls).toHaveLength(1);
    await new LlmPathPlanner({ fallback: linkingPlanner({ confidence: 0.99 }), threshold: 0.5 }).doPlan({
      query: nikonQuery,
      feedback: [{ kind: 'incorrect-entity', message: 'Nikon is wrong here' }],
      context,
    });
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(JSON.stringify(model.doGenerateCalls[1]!.prompt)).toContain(
      'incorrect-entity: Nikon is wrong here',
    );
  });

  it('shows few-shot examples from the artifact and the linked mentions in the prompt', async () => {
    const artifacts = memoryArtifacts();
    await llmPathPlannerArtifact.save(artifacts, 'a', {
      threshold: 0.5,
      examples: [
        {
          query: 'lenses made by Canon',
          plan: {
            targetTypes: ['product'],
            anchors: [{ mention: 'Canon', type: 'brand' }],
            paths: [{ anchor: 'Canon', hops: [{ edge: 'made_by', direction: 'in' }] }],
            restriction: 'lenses',
          },
        },
      ],
      val: { queries: 0, offlineFailures: 0, callRate: 0, failuresCaught: 0 },
    });
    const { model, context } = setup({ artifacts });
    await new LlmPathPlanner({ fallback: linkingPlanner({ confidence: 0.1 }), artifact: 'a' }).doPlan({
      query: nikonQuery,
      feedback: [],
      context,
    });
    const prompt = JSON.stringify(model.doGenerateCalls[0]!.prompt);
    expect(prompt).toContain('Question: \\"lenses made by Canon\\"');
    expect(prompt).toContain('(product) -[made_by]-> (brand)');
    expect(prompt).toContain('\\"Nikon\\": brand');
  });
});

describe('LlmPathPlanner: no model, no budget, aborted', () => {
  it('without a model plans offline and says so', async () => {
    const { warnings, context } = setup({ languageModel: undefined });
    const fallback = linkingPlanner({ confidence: 0.1 });
    const plan = await new LlmPathPlanner({ fallback, when: 'always' }).doPlan({
      query: nikonQuery,
      feedback: [],
      context,
    });
    expect(plan.raw).toBeUndefined();
    expect(warnings).toEqual(['no language model is configured: the offline plan is used']);
  });

  it('with the budget spent plans offline and says so', async () => {
    const inner = new MockLanguageModelV4({ doGenerate: textResult(validAnswer) });
    const { warnings, context } = setup({ languageModel: meterLanguageModel(inner, [new LlmMeter(0)]) });
    const plan = await new LlmPathPlanner({
      fallback: linkingPlanner({ confidence: 0.1 }),
      when: 'always',
    }).doPlan({
      query: nikonQuery,
      feedback: [],
      context,
    });
    expect(plan.raw).toBeUndefined();
    expect(inner.doGenerateCalls).toHaveLength(0);
    expect(warnings[0]).toMatch(
      /^plan paths: LLM-call budget of 0 per query exhausted; the offline plan is used$/,
    );
  });
});

describe('LlmPathPlanner grounding against the graph', () => {
  it('turns a first hop around when the anchor has that edge only the other way (schemas with * ends)', async () => {
    const skb = toySkb();
    const wildcard = {
      ...skb,
      schema: { ...skb.schema, edgeTypes: skb.schema.edgeTypes.map((e) => ({ ...e, from: '*', to: '*' })) },
    };
    const warnings: string[] = [];
    const model = new MockLanguageModelV4({
      doGenerate: textResult(
        '{"anchors": [{"mention": "Nikon"}], "paths": [{"anchor": "Nikon", "hops": [{"edge": "made_by", "direction": "out"}]}]}',
      ),
    });
    const context = {
      ...storeContext(wildcard),
      languageModel: model,
      warn: (m: string) => warnings.push(m),
    };
    const plan = await new LlmPathPlanner({
      fallback: linkingPlanner({ confidence: 0.1 }),
      when: 'always',
    }).doPlan({
      query: nikonQuery,
      feedback: [],
      context,
    });
    expect(plan.paths[0]!.hops[0]!.direction).toBe('in');
    expect(warnings.join('\n')).toMatch(/"Nikon" has made_by edges only the other way; followed "in"/);
  });

  it('links a mention the exact name index misses with a fuzzy look-up, preferring the stated type', async () => {
    const model = new MockLanguageModelV4({
      doGenerate: textResult(
        '{"anchors": [{"mention": "Nikkon", "type": "brand"}], "paths": [{"anchor": "Nikkon", "hops": [{"edge": "made_by", "direction": "in"}]}]}',
      ),
    });
    const { context } = setup({ languageModel: model });
    const plan = await new LlmPathPlanner({
      fallback: linkingPlanner({ confidence: 0.1 }),
      when: 'always',
    }).doPlan({
      query: 'lenses by Nikkon',
      feedback: [],
      context,
    });
    expect(plan.anchors[0]!.candidates[0]).toMatchObject({ id: 'b:nikon', type: 'brand' });
  });
});
