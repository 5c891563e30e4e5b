import type { Candidate, Plan, PlannerV1, RerankerV1, RetrievalContext } from '@weft/spec';
import { generateText } from 'ai';
import { describe, expect, it } from 'vitest';
import {
  InMemoryGraphStore,
  InMemoryTextIndex,
  MockCritic,
  MockLanguageModelV4,
  MockPlanner,
  MockReranker,
  MockTraverser,
  textResult,
  toySkb,
} from '../test/index.ts';
import { createRetriever, retrieve } from './create-retriever.ts';
import { emptyPlan } from '@weft/kit';

const skb = toySkb();
const baseContext = (extra: Partial<RetrievalContext> = {}): RetrievalContext => ({
  schema: skb.schema,
  graph: new InMemoryGraphStore(skb),
  text: new InMemoryTextIndex(skb.nodes),
  ...extra,
});
const candidate = (id: string, score: number, type = 'product'): Candidate => ({
  id,
  type,
  score,
  scores: { test: score },
  trajectories: [{ hops: [{ node: id, via: 'text' }] }],
});
const plan = (query: string): Plan => ({ ...emptyPlan(query, skb.schema), confidence: 0.5 });

describe('createRetriever', () => {
  it('lets traversers prepare with the query before the planner runs, and survives a throwing doPrepare', async () => {
    const events: string[] = [];
    const planner = new MockPlanner({
      doPlan: ({ query }) => {
        events.push('plan');
        return plan(query);
      },
    });
    const preparing = new MockTraverser({ doTraverse: [[candidate('p:d850', 1)]] });
    const prepared: { query: string; limit: number }[] = [];
    Object.assign(preparing, {
      doPrepare: ({ query, limit }: { query: string; limit: number }) => {
        events.push('prepare');
        prepared.push({ query, limit });
        return { handle: query };
      },
    });
    const throwing = new MockTraverser({ doTraverse: [[candidate('p:q2', 1)]] });
    Object.assign(throwing, {
      doPrepare: () => {
        throw new Error('not ready');
      },
    });
    const retriever = createRetriever({
      name: 't',
      context: baseContext(),
      planner,
      traversers: [preparing, throwing],
    });
    const result = await retrieve(retriever, { query: 'nikon dslr', limit: 5 });
    expect(events).toEqual(['prepare', 'plan']);
    expect(prepared).toEqual([{ query: 'nikon dslr', limit: 100 }]);
    // The handle comes back to the traverser that made it, and to no other.
    expect(preparing.doTraverseCalls[0]?.prepared).toEqual({ handle: 'nikon dslr' });
    expect(throwing.doTraverseCalls[0]?.prepared).toBeUndefined();
    expect(result.ranking.map((c) => c.id).sort()).toEqual(['p:d850', 'p:q2']);
  });

  it("records a stage's warnings in its trace, and warns when candidates lack a reranker's scores", async () => {
    const traverser = new MockTraverser({
      doTraverse: ({ context }) => {
        context.warn?.('model missing: defaults apply');
        return [candidate('p:d850', 1)];
      },
    });
    const reranker: RerankerV1 = {
      specificationVersion: 'v1',
      name: 'needs-structure',
      requiredScores: ['test', 'structure'],
      doRerank: async ({ candidates }) => [...candidates],
    };
    const retriever = createRetriever({
      name: 't',
      context: baseContext(),
      traversers: [traverser],
      rerankers: [reranker],
    });
    const { trace } = await retrieve(retriever, { query: 'nikon', limit: 5 });
    expect(trace.stages.find((s) => s.kind === 'traverser')?.warnings).toEqual([
      'model missing: defaults apply',
    ]);
    const warnings = trace.stages.find((s) => s.kind === 'reranker')?.warnings ?? [];
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/"structure" that no candidate carries/);
    expect(warnings[0]).not.toMatch(/"test"/);
  });

  it('runs planner → traverser → reranker, dedupes, drops non-target types and records a trace', async () => {
    const planner = new MockPlanner({ doPlan: ({ query }) => plan(query) });
    const traverser = new MockTraverser({
      doTraverse: [
        [
          candidate('p:d850', 3),
          candidate('b:nikon', 2.5, 'brand'),
          candidate('p:d850', 2),
          candidate('p:q2', 1),
        ],
      ],
    });
    const reranker = new MockReranker({});
    const retriever = createRetriever({
      name: 't',
      context: baseContext(),
      planner,
      traversers: [traverser],
      rerankers: [reranker],
    });
    const result = await retrieve(retriever, { query: 'nikon dslr', limit: 5 });

    expect(result.ranking.map((c) => c.id)).toEqual(['p:d850', 'p:q2']);
    expect(planner.doPlanCalls[0]!.feedback).toEqual([]);
    expect(traverser.doTraverseCalls[0]!.limit).toBe(100);
    expect(traverser.doTraverseCalls[0]!.plan.query).toBe('nikon dslr');
    expect(result.trace.stages.map((s) => `${s.kind}:${s.name}`)).toEqual([
      'planner:mock-planner',
      'traverser:mock-traverser',
      'reranker:mock-reranker',
    ]);
    expect(result.trace.rounds).toBe(1);
    expect(result.trace.llmCalls).toBe(0);
    expect(result.trace.stages[1]!.output).toMatchObject({ count: 4 });
  });

  it('fuses several traversers (RRF by default)', async () => {
    const a = new MockTraverser({ name: 'a', doTraverse: [[candidate('p:1', 1), candidate('p:2', 0.5)]] });
    const b = new MockTraverser({ name: 'b', doTraverse: [[candidate('p:2', 1)]] });
    const retriever = createRetriever({ name: 't', context: baseContext(), traversers: [a, b] });
    const result = await retriever.doRetrieve({ query: 'q' });
    expect(result.ranking.map((c) => c.id)).toEqual(['p:2', 'p:1']);
    expect(result.trace.stages.map((s) => s.kind)).toEqual(['traverser', 'traverser', 'fusion']);
  });

  it('re-plans with the critic feedback until the critic accepts', async () => {
    const planner = new MockPlanner({ doPlan: ({ query }) => plan(query) });
    const traverser = new MockTraverser({ doTraverse: [[candidate('p:eos', 1)], [candidate('p:d850', 1)]] });
    const critic = new MockCritic({
      doCritique: [
        {
          accept: false,
          feedback: [{ kind: 'incorrect-entity', message: 'Canon is wrong', entity: 'Canon' }],
        },
        { accept: true },
      ],
    });
    const result = await createRetriever({
      name: 't',
      context: baseContext(),
      planner,
      traversers: [traverser],
      critic,
    }).doRetrieve({
      query: 'nikon',
    });
    expect(result.ranking.map((c) => c.id)).toEqual(['p:d850']);
    expect(result.trace.rounds).toBe(2);
    expect(planner.doPlanCalls[1]!.feedback.map((f) => f.kind)).toEqual(['incorrect-entity']);
    expect(planner.doPlanCalls[1]!.previous?.query).toBe('nikon');
    expect(result.trace.feedback).toHaveLength(1);
  });

  it('stops after maxRounds even when the critic keeps rejecting', async () => {
    const critic = new MockCritic({
      doCritique: { accept: false, feedback: [{ kind: 'no-intersection', message: 'none' }] },
    });
    const traverser = new MockTraverser({ doTraverse: [[candidate('p:1', 1)]] });
    const result = await createRetriever({
      name: 't',
      context: baseContext(),
      traversers: [traverser],
      critic,
      maxRounds: 2,
    }).doRetrieve({
      query: 'q',
    });
    expect(result.trace.rounds).toBe(2);
    expect(critic.doCritiqueCalls).toHaveLength(1);
    expect(traverser.doTraverseCalls).toHaveLength(2);
  });

  it('counts LLM calls and tokens per stage and enforces the budget', async () => {
    const model = new MockLanguageModelV4({ doGenerate: textResult('plan', { input: 7, output: 3 }) });
    const llmPlanner: PlannerV1 = {
      specificationVersion: 'v1',
      name: 'llm-planner',
      async doPlan({ query, context }) {
        await generateText({ model: context.languageModel!, prompt: query });
        return plan(query);
      },
    };
    const llmReranker: RerankerV1 = {
      specificationVersion: 'v1',
      name: 'llm-reranker',
      async doRerank({ candidates, context }) {
        await generateText({ model: context.languageModel!, prompt: 'rerank' });
        return [...candidates].reverse();
      },
    };
    const traverser = new MockTraverser({ doTraverse: [[candidate('p:1', 2), candidate('p:2', 1)]] });
    const ok = await createRetriever({
      name: 't',
      context: baseContext({ languageModel: model }),
      planner: llmPlanner,
      traversers: [traverser],
      rerankers: [llmReranker],
      llmBudget: 5,
    }).doRetrieve({ query: 'q' });
    expect(ok.trace.llmCalls).toBe(2);
    expect(ok.trace.inputTokens).toBe(14);
    expect(ok.trace.stages.find((s) => s.kind === 'planner')).toMatchObject({
      llmCalls: 1,
      inputTokens: 7,
      outputTokens: 3,
    });
    expect(ok.ranking.map((c) => c.id)).toEqual(['p:2', 'p:1']);

    // Budget 1: the planner spends it, the optional reranker is skipped, the ranking survives.
    const tight = await createRetriever({
      name: 't',
      context: baseContext({ languageModel: model }),
      planner: llmPlanner,
      traversers: [traverser],
      rerankers: [llmReranker],
      llmBudget: 1,
    }).doRetrieve({ query: 'q' });
    expect(tight.trace.llmCalls).toBe(1);
    expect(tight.ranking.map((c) => c.id)).toEqual(['p:1', 'p:2']);
    expect(tight.trace.stages.find((s) => s.kind === 'reranker')!.error?.code).toBe(
      'WEFT_LLM_BUDGET_EXCEEDED',
    );

    // Budget 0: the planner itself cannot run, which is an error.
    await expect(
      createRetriever({
        name: 't',
        context: baseContext({ languageModel: model }),
        planner: llmPlanner,
        traversers: [traverser],
        llmBudget: 0,
      }).doRetrieve({
        query: 'q',
      }),
    ).rejects.toMatchObject({ code: 'WEFT_LLM_BUDGET_EXCEEDED' });
  });

  it('wraps stage failures with the stage name and records them', async () => {
    const traverser = new MockTraverser({
      doTraverse: () => {
        throw new Error('disk on fire');
      },
    });
    const retriever = createRetriever({ name: 't', context: baseContext(), traversers: [traverser] });
    await expect(retriever.doRetrieve({ query: 'q' })).rejects.toMatchObject({
      code: 'WEFT_STAGE_FAILED',
      message: 'traverser "mock-traverser" failed: disk on fire',
    });
  });

  it('rejects bad limits and stacks without traversers', async () => {
    expect(() => createRetriever({ name: 't', context: baseContext(), traversers: [] })).toThrow(
      /no traverser/,
    );
    const retriever = createRetriever({
      name: 't',
      context: baseContext(),
      traversers: [new MockTraverser({ doTraverse: [[]] })],
    });
    await expect(retriever.doRetrieve({ query: 'q', limit: 0 })).rejects.toMatchObject({
      code: 'WEFT_BAD_INPUT',
    });
  });

  it('honours an abort signal', async () => {
    const controller = new AbortController();
    controller.abort();
    const retriever = createRetriever({
      name: 't',
      context: baseContext(),
      traversers: [new MockTraverser({ doTraverse: [[]] })],
    });
    await expect(retriever.doRetrieve({ query: 'q', abortSignal: controller.signal })).rejects.toMatchObject({
      code: 'WEFT_ABORTED',
    });
  });

  it('orders equal scores by id whatever order the traverser gave them in, before the limit cuts', async () => {
    const ids = (order: readonly string[]) =>
      retrieve(
        createRetriever({
          name: 'ties',
          context: baseContext(),
          traversers: [
            new MockTraverser({
              doTraverse: [
                [candidate('p:top', 3), ...order.map((id) => candidate(id, 1)), candidate('p:low', 0.5)],
              ],
            }),
          ],
        }),
        { query: 'q', limit: 3 },
      ).then((r) => r.ranking.map((c) => c.id));
    const first = await ids(['p:c', 'p:a', 'p:b']);
    expect(first).toEqual(['p:top', 'p:a', 'p:b']);
    expect(await ids(['p:b', 'p:c', 'p:a'])).toEqual(first);
  });
});
