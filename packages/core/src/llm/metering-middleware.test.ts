import type { Candidate, PlannerV1, RerankerV1, RetrievalContext } from '@weft/spec';
import { embed, generateText, simulateReadableStream, streamText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { createRetriever } from '../pipeline/create-retriever.ts';
import { emptyPlan } from '@weft/kit';
import {
  hashedEmbeddingModel,
  InMemoryGraphStore,
  InMemoryTextIndex,
  MockLanguageModelV4,
  MockTraverser,
  textResult,
  toySkb,
} from '../test/index.ts';
import { LlmMeter } from './llm-meter.ts';
import { withMeters } from './meter-scope.ts';
import { meteringMiddleware, meterLanguageModel, purposeOptions } from './metering-middleware.ts';

const skb = toySkb();
const context = (extra: Partial<RetrievalContext> = {}): RetrievalContext => ({
  schema: skb.schema,
  graph: new InMemoryGraphStore(skb),
  text: new InMemoryTextIndex(skb.nodes),
  ...extra,
});
const candidate = (id: string, score: number): Candidate => ({
  id,
  type: 'product',
  score,
  scores: {},
  trajectories: [{ hops: [{ node: id, via: 'text' }] }],
});

describe('meteringMiddleware', () => {
  it('charges explicit meters, records tokens, purpose and outcome, and refuses past the budget', async () => {
    const meter = new LlmMeter(1);
    const model = meterLanguageModel(
      new MockLanguageModelV4({ doGenerate: textResult('ok', { input: 11, output: 4 }) }),
      [meter],
    );
    await generateText({ model, prompt: 'x', providerOptions: purposeOptions('plan paths') });
    expect(meter.snapshot()).toMatchObject({ calls: 1, inputTokens: 11, outputTokens: 4 });
    expect(meter.log[0]).toMatchObject({
      kind: 'language',
      purpose: 'plan paths',
      model: 'mock-provider:mock-model-id',
      outcome: 'ok',
      inputTokens: 11,
      outputTokens: 4,
    });
    await expect(generateText({ model, prompt: 'y', maxRetries: 0 })).rejects.toMatchObject({
      code: 'WEFT_LLM_BUDGET_EXCEEDED',
    });
    expect(meter.calls).toBe(1);
    expect(meter.log[1]).toMatchObject({ outcome: 'budget-exceeded', inputTokens: 0 });
  });

  it('records provider errors and refusals as such', async () => {
    const meter = new LlmMeter();
    const failing = meterLanguageModel(
      new MockLanguageModelV4({
        doGenerate: async () => {
          throw new Error('503 upstream');
        },
      }),
      [meter],
    );
    await expect(generateText({ model: failing, prompt: 'x', maxRetries: 0 })).rejects.toThrow(/503/);
    const refusing = meterLanguageModel(
      new MockLanguageModelV4({
        doGenerate: async () => ({
          ...textResult(''),
          finishReason: { unified: 'content-filter', raw: 'content_filter' },
        }),
      }),
      [meter],
    );
    await generateText({ model: refusing, prompt: 'x' });
    expect(meter.log.map((c) => c.outcome)).toEqual(['error', 'refused']);
    expect(meter.log[0]!.message).toMatch(/503 upstream/);
  });

  it('charges the meters of the running stage when none are given, and a doubly wrapped model once', async () => {
    const meter = new LlmMeter();
    const own = wrapLanguageModel({
      model: new MockLanguageModelV4({ doGenerate: textResult('ok', { input: 2, output: 1 }) }),
      middleware: meteringMiddleware(),
    });
    // Outside any stage: nothing to charge.
    await generateText({ model: own, prompt: 'x' });
    expect(meter.calls).toBe(0);
    await withMeters([meter], () => generateText({ model: own, prompt: 'x' }));
    expect(meter.calls).toBe(1);
    // The pipeline's metered model, wrapped again by a stage: still one call.
    const twice = wrapLanguageModel({
      model: meterLanguageModel(own, [meter]),
      middleware: meteringMiddleware(),
    });
    await withMeters([meter], () => generateText({ model: twice, prompt: 'x' }));
    expect(meter.snapshot()).toMatchObject({ calls: 2, inputTokens: 4, outputTokens: 2 });
  });

  it('meters streamed calls when they finish', async () => {
    const meter = new LlmMeter();
    const model = meterLanguageModel(
      new MockLanguageModelV4({
        doStream: async () => ({
          stream: simulateReadableStream({
            chunks: [
              { type: 'text-start', id: '1' },
              { type: 'text-delta', id: '1', delta: 'hi' },
              { type: 'text-end', id: '1' },
              {
                type: 'finish',
                finishReason: { unified: 'stop', raw: 'stop' },
                usage: textResult('', { input: 5, output: 2 }).usage,
              },
            ],
          }),
        }),
      }),
      [meter],
    );
    const result = streamText({ model, prompt: 'x' });
    expect(await result.text).toBe('hi');
    expect(meter.snapshot()).toMatchObject({ calls: 1, inputTokens: 5, outputTokens: 2 });
  });
});

describe('metering in the pipeline', () => {
  it('counts a model a stage brings itself against the stage and the stack budget', async () => {
    const own = wrapLanguageModel({
      model: new MockLanguageModelV4({ doGenerate: textResult('ok', { input: 3, output: 2 }) }),
      middleware: meteringMiddleware(),
    });
    const planner: PlannerV1 = {
      specificationVersion: 'v1',
      name: 'own-model-planner',
      async doPlan({ query, context: stageContext }) {
        await generateText({ model: own, prompt: query, providerOptions: purposeOptions('plan') });
        return emptyPlan(query, stageContext.schema);
      },
    };
    const traverser = new MockTraverser({ doTraverse: [[candidate('p:1', 1)]] });
    const result = await createRetriever({
      name: 't',
      context: context(),
      planner,
      traversers: [traverser],
      llmBudget: 3,
    }).doRetrieve({ query: 'q' });
    expect(result.trace).toMatchObject({ llmCalls: 1, inputTokens: 3, outputTokens: 2 });
    const stage = result.trace.stages.find((s) => s.kind === 'planner')!;
    expect(stage.llmCalls).toBe(1);
    expect(stage.modelCalls).toEqual([
      expect.objectContaining({ kind: 'language', purpose: 'plan', outcome: 'ok', inputTokens: 3 }),
    ]);
    // Budget 0: the planner's own model is refused like the pipeline's.
    await expect(
      createRetriever({
        name: 't',
        context: context(),
        planner,
        traversers: [traverser],
        llmBudget: 0,
      }).doRetrieve({ query: 'q' }),
    ).rejects.toMatchObject({ code: 'WEFT_LLM_BUDGET_EXCEEDED' });
  });

  it('counts embedding calls without charging them to the budget', async () => {
    const embedding = hashedEmbeddingModel();
    const reranker: RerankerV1 = {
      specificationVersion: 'v1',
      name: 'embedding-reranker',
      async doRerank({ candidates, context: stageContext }) {
        await embed({ model: stageContext.embeddingModel!, value: 'query' });
        return [...candidates];
      },
    };
    const result = await createRetriever({
      name: 't',
      context: context({ embeddingModel: embedding }),
      traversers: [new MockTraverser({ doTraverse: [[candidate('p:1', 1)]] })],
      rerankers: [reranker],
      llmBudget: 0,
    }).doRetrieve({ query: 'q' });
    expect(result.trace.llmCalls).toBe(0);
    expect(result.trace.embeddingCalls).toBe(1);
    const stage = result.trace.stages.find((s) => s.kind === 'reranker')!;
    expect(stage.modelCalls).toEqual([
      expect.objectContaining({
        kind: 'embedding',
        outcome: 'ok',
        model: `${embedding.provider}:${embedding.modelId}`,
      }),
    ]);
  });
});
