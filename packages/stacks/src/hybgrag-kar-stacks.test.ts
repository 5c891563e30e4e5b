import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runRetrieverSuite } from '@weft/conformance';
import { retrieve, type StackDefinition } from '@weft/core';
import {
  memoryArtifacts,
  MockLanguageModelV4,
  textResult,
  toyContext,
  toyTrainingSet,
} from '@weft/core/test';
import { createLanguageModel } from '@weft/llm';
import { type RoutedPlan, routeOf } from '@weft/planner-hybgrag';
import type { RetrievalTrace } from '@weft/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStack, createStackRegistry, hybgragStack, trainStacks } from './index.ts';

const query = 'Nikon DSLR cameras for wildlife';

/** Which stage a prompt is from, by the instructions each one sends. */
function stageOf(text: string): 'route' | 'validate' | 'comment' | 'expand' | 'other' {
  if (text.includes('You route questions')) return 'route';
  if (text.includes('You check the results')) return 'validate';
  if (text.includes('A knowledge-base search chose a retrieval action')) return 'comment';
  if (text.includes('You expand search questions')) return 'expand';
  return 'other';
}

const action = (entities: { mention: string; edge: string; direction: 'in' | 'out' }[]) =>
  JSON.stringify({
    module: entities.length ? 'hybrid' : 'text',
    entities: entities.map((e) => ({
      mention: e.mention,
      relations: [{ edge: e.edge, direction: e.direction }],
    })),
  });
const nikon = { mention: 'Nikon', edge: 'made_by', direction: 'in' as const };
const dslr = { mention: 'DSLR cameras', edge: 'in_category', direction: 'in' as const };

/**
 * A model that answers every stage in its format: the router tries Nikon, then text, then Nikon ∩
 * DSLR; the validator never accepts; the commentor's feedback is fault 2, then 1, then 3.
 */
function neverAccepting() {
  const routes = [action([nikon]), action([]), action([nikon, dslr])];
  const comments = ['incorrect-intersection', 'missing-entity', 'no-intersection'];
  let routed = 0;
  let commented = 0;
  return (text: string): string => {
    switch (stageOf(text)) {
      case 'route':
        return routes[Math.min(routed++, routes.length - 1)]!;
      case 'validate':
        return '{"accept": false, "reason": "not what was asked"}';
      case 'comment':
        return JSON.stringify({
          feedback: [{ kind: comments[Math.min(commented++, 2)], message: 'try again' }],
        });
      case 'expand':
        return '{"expansions": ["The Nikon D850 is a rugged full-frame DSLR for wildlife.", "Nikon DSLRs", "wildlife cameras"]}';
      default:
        return '{}';
    }
  };
}

function mockModel(answer: (text: string) => string) {
  return new MockLanguageModelV4({
    doGenerate: async ({ prompt }) => textResult(answer(JSON.stringify(prompt)), { input: 300, output: 30 }),
  });
}

const languageCalls = (trace: RetrievalTrace) =>
  trace.stages.flatMap((s) =>
    (s.modelCalls ?? [])
      .filter((c) => c.kind === 'language')
      .map((c) => `${s.kind}:${c.purpose}:${c.outcome}`),
  );

describe('the HybGRAG and KAR stacks', () => {
  it('are registered after the offline method stacks, before the other LLM stacks', () => {
    const names = createStackRegistry()
      .list()
      .map((e) => e.name);
    expect(names.slice(names.indexOf('focused-offline') + 1, names.indexOf('focused-offline') + 5)).toEqual([
      'hybgrag-offline',
      'hybgrag',
      'kar-offline',
      'kar',
    ]);
  });

  it('the offline variants make no model call and say nothing about models', async () => {
    for (const name of ['hybgrag-offline', 'kar-offline']) {
      const { ranking, trace } = await retrieve(await createStack(name, { context: toyContext() }), {
        query,
        limit: 5,
      });
      expect(ranking.length).toBeGreaterThan(0);
      expect(trace.llmCalls).toBe(0);
    }
  });

  it('hybgrag-offline reads as a refinement path: each round’s action beside its verdict', async () => {
    const { trace } = await retrieve(await createStack('hybgrag-offline', { context: toyContext() }), {
      query: 'telephoto lens made by Canon for birds',
      limit: 5,
    });
    const critics = trace.stages.filter((s) => s.kind === 'critic');
    // The pipeline critiques every round but the fourth (whose plan replays the best one).
    expect(critics.length).toBe(trace.rounds === 4 ? 3 : trace.rounds);
    expect(critics.length).toBeGreaterThan(0);
    for (const stage of critics)
      expect((stage.output as { action?: string }).action).toMatch(/^(text|hybrid|graph): /);
    expect(routeOf(trace.plan)?.action).toMatch(/^(text|hybrid|graph): /);
  });

  it('hybgrag-offline, untrained, follows the relation the question names in full, and every relation when it names none', async () => {
    const stack = await createStack('hybgrag-offline', { context: toyContext() });
    const firstRoute = async (question: string) => {
      const route = routeOf((await retrieve(stack, { query: question, limit: 5 })).trace.plan)!;
      const choice = route.history[0]?.choice ?? route.choice;
      return choice.entities.map((e) => ({
        widened: e.widened,
        relations: e.paths.map((p) => p[0]!.edgeType),
      }));
    };
    const named = await firstRoute('lenses compatible with the Nikon D850');
    expect(named.length).toBeGreaterThan(0);
    expect(named[0]).toEqual({ widened: false, relations: ['compatible_with', 'compatible_with'] });
    const unnamed = await firstRoute('lenses for the Nikon D850');
    expect(unnamed[0]?.widened).toBe(true);
  });

  it('hybgrag with a critic that never accepts: stops at 4 rounds, ≤ 14 calls, returns the best round', async () => {
    const { ranking, trace } = await retrieve(
      await createStack('hybgrag', { context: toyContext() }, { languageModel: mockModel(neverAccepting()) }),
      { query, limit: 5 },
    );
    expect(trace.rounds).toBe(4);
    // Router, validator and commentor on each critiqued round; the last round replays without a call.
    expect(languageCalls(trace)).toEqual([
      'planner:route:ok',
      'critic:validate results:ok',
      'critic:comment on results:ok',
      'planner:refine route:ok',
      'critic:validate results:ok',
      'critic:comment on results:ok',
      'planner:refine route:ok',
      'critic:validate results:ok',
      'critic:comment on results:ok',
    ]);
    expect(trace.llmCalls).toBeLessThanOrEqual(14);
    expect(trace.feedback.map((f) => f.kind)).toEqual([
      'incorrect-intersection',
      'missing-entity',
      'no-intersection',
    ]);
    const final = trace.plan as RoutedPlan;
    // Round 1 (text, faulted only for a missing entity) was the best.
    expect(final.route.reason).toBe('last round: replaying round 1, the one the critic faulted least');
    expect(final.route.action).toBe('text: search the documents of the target types');
    expect(ranking.every((c) => c.scores.egoGraph === 0)).toBe(true);
  });

  it('hybgrag enforces its budget: at most 14 calls whatever is asked, fewer when the caller says so', async () => {
    const definition = (await hybgragStack.create(
      { context: toyContext() },
      { llmBudget: 100 },
    )) as StackDefinition;
    expect(definition.llmBudget).toBe(14);
    const { ranking, trace } = await retrieve(
      await createStack(
        'hybgrag',
        { context: toyContext() },
        { languageModel: mockModel(neverAccepting()), llmBudget: 4 },
      ),
      { query, limit: 5 },
    );
    expect(trace.llmCalls).toBe(4);
    expect(ranking.length).toBeGreaterThan(0);
    const warnings = trace.stages.flatMap((s) => s.warnings ?? []);
    expect(warnings.some((w) => /budget/i.test(w))).toBe(true);
  });

  it('kar makes one call and retrieves with the expanded question', async () => {
    const { ranking, trace } = await retrieve(
      await createStack('kar', { context: toyContext() }, { languageModel: mockModel(neverAccepting()) }),
      { query, limit: 5 },
    );
    expect(languageCalls(trace)).toEqual(['expander:expand query:ok']);
    const expander = trace.stages.find((s) => s.kind === 'expander')!;
    expect((expander.output as { expansion: string }).expansion).toMatch(/^The Nikon D850 is a rugged/);
    expect(ranking[0]!.id).toBe('p:d850');
  });

  it('without a model, hybgrag and kar run their offline halves and say so', async () => {
    for (const name of ['hybgrag', 'kar']) {
      const { trace } = await retrieve(await createStack(name, { context: toyContext() }), {
        query,
        limit: 5,
      });
      expect(trace.llmCalls).toBe(0);
      expect(
        trace.stages
          .flatMap((s) => s.warnings ?? [])
          .some((w) => w.startsWith('no language model is configured')),
      ).toBe(true);
    }
  });
});

const toySet = toyTrainingSet(
  [
    ['products by Nikon', ['p:d850', 'p:d3500', 'p:nikkor']],
    ['products by Canon', ['p:eos', 'p:ef']],
    ['lenses made by Nikon', ['p:nikkor']],
    ['what works with the Nikon D850', ['p:nikkor']],
    ['telephoto lens for birds', ['p:nikkor']],
    ['compact camera for café street photography', ['p:q2']],
  ],
  3,
);

describe('training hybgrag', () => {
  it('fits the lexical planner when missing, then stores few-shot examples the router reads back', async () => {
    const artifacts = memoryArtifacts();
    const store = { context: { ...toyContext(), artifacts } };
    const result = await trainStacks({
      registry: createStackRegistry(),
      store,
      sets: [toySet],
      artifacts,
      stacks: ['hybgrag'],
    });
    expect([...artifacts.stored.keys()]).toContain('hybgrag.planner-hybgrag');
    expect([...artifacts.stored.keys()]).toContain('default.planner-lexical');
    // The lexical planner it reads was missing, so the default stack's step was fitted first.
    expect(result.steps.map((s) => [s.step, s.stacks])).toEqual([
      ['default', []],
      ['hybgrag', ['hybgrag']],
    ]);
    expect(result.steps[1]!.summary).toMatch(/^\d+ few-shot examples for the router/);
    const examples = (artifacts.stored.get('hybgrag.planner-hybgrag') as { value: { query: string }[] })
      .value;
    const model = mockModel(neverAccepting());
    const { trace } = await retrieve(await createStack('hybgrag', store, { languageModel: model }), {
      query,
      limit: 5,
    });
    expect(trace.stages.flatMap((s) => s.warnings ?? []).filter((w) => /few-shot/.test(w))).toEqual([]);
    expect(examples.length).toBeGreaterThan(0);
    expect(JSON.stringify(model.doGenerateCalls[0]!.prompt)).toContain(examples[0]!.query);
  });
});

describe('hybgrag and kar through the real openai-compatible provider', () => {
  let server: Server;
  let baseURL = '';
  const requests: string[] = [];
  const answer = neverAccepting();
  beforeAll(async () => {
    server = createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        messages?: { content: unknown }[];
      };
      const text = JSON.stringify(body.messages ?? []);
      requests.push(stageOf(text));
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          id: `chatcmpl-${requests.length}`,
          object: 'chat.completion',
          created: 1_700_000_000,
          model: 'canned',
          choices: [
            { index: 0, message: { role: 'assistant', content: answer(text) }, finish_reason: 'stop' },
          ],
          usage: { prompt_tokens: 120, completion_tokens: 20, total_tokens: 140 },
        }),
      );
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => {
    server.close();
    await once(server, 'close');
  });

  it('makes every call over HTTP, metered, and the loop and the expansion work end to end', async () => {
    const languageModel = await createLanguageModel(`openai-compatible:${baseURL}:canned`, { env: {} });
    const hybgrag = await retrieve(
      await createStack('hybgrag', { context: toyContext() }, { languageModel }),
      {
        query,
        limit: 5,
      },
    );
    expect(hybgrag.trace.rounds).toBe(4);
    expect(hybgrag.trace.llmCalls).toBe(9);
    expect(hybgrag.trace.inputTokens).toBe(9 * 120);
    expect(languageCalls(hybgrag.trace).every((c) => c.endsWith(':ok'))).toBe(true);
    const kar = await retrieve(await createStack('kar', { context: toyContext() }, { languageModel }), {
      query,
      limit: 5,
    });
    expect(languageCalls(kar.trace)).toEqual(['expander:expand query:ok']);
    expect(requests).toEqual([...Array(3).fill(['route', 'validate', 'comment']).flat(), 'expand']);
  });
});

for (const name of ['hybgrag-offline', 'kar-offline']) {
  runRetrieverSuite({ name: `${name} stack`, create: (context) => createStack(name, { context }) });
}
for (const name of ['hybgrag', 'kar']) {
  runRetrieverSuite({
    name: `${name} stack (mock model)`,
    create: (context) => createStack(name, { context }, { languageModel: mockModel(neverAccepting()) }),
  });
}
