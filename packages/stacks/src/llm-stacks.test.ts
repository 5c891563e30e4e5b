import { retrieve } from '@weft/core';
import { runRetrieverSuite } from '@weft/conformance';
import {
  memoryArtifacts,
  MockLanguageModelV4,
  textResult,
  toyContext,
  toyTrainingSet,
} from '@weft/core/test';
import { trajectoryFeatures, trajectoryRerankerArtifact } from '@weft/reranker-trajectory';
import type { RetrievalTrace } from '@weft/spec';
import { describe, expect, it } from 'vitest';
import { createStack, createStackRegistry, type StackCreateOptions, trainStacks } from './index.ts';

const pathPlan = JSON.stringify({
  targetTypes: ['product'],
  anchors: [{ mention: 'Nikon', type: 'brand' }],
  paths: [{ anchor: 'Nikon', hops: [{ edge: 'made_by', direction: 'in', nodeType: 'product' }] }],
  restriction: 'lenses',
});
const cypher =
  "MATCH (p:product)-[:made_by]->(b:brand {name: 'Nikon'}) WHERE p.text CONTAINS 'lens' RETURN p";

/** A model that answers each stage's request in its format, with token usage. */
function stageModel() {
  return new MockLanguageModelV4({
    doGenerate: async ({ prompt }) => {
      const text = JSON.stringify(prompt);
      if (text.includes('read-only Cypher')) return textResult(cypher, { input: 300, output: 30 });
      if (text.includes('You rank candidates'))
        return textResult('{"ranking": [2, 1]}', { input: 200, output: 8 });
      return textResult(pathPlan, { input: 400, output: 60 });
    },
  });
}

const build = (name: string, options: StackCreateOptions = {}, context = toyContext()) =>
  createStack(name, { context }, options);

const calls = (trace: RetrievalTrace) =>
  trace.stages.flatMap((s) =>
    (s.modelCalls ?? [])
      .filter((c) => c.kind === 'language')
      .map((c) => `${s.kind}:${c.purpose}:${c.outcome}`),
  );

describe('the mor and focused stacks', () => {
  it('are built-in stacks, listed after their offline halves', () => {
    const names = createStackRegistry()
      .list()
      .map((e) => e.name);
    expect(names.indexOf('mor')).toBeGreaterThan(names.indexOf('mor-offline'));
    expect(names.indexOf('focused')).toBeGreaterThan(names.indexOf('focused-offline'));
    expect(names.indexOf('mor-offline')).toBeGreaterThanOrEqual(0);
  });

  it('without a model run offline, make no call, and say so in the trace', async () => {
    for (const name of ['mor', 'focused']) {
      const { ranking, trace } = await retrieve(await build(name, { llmWhen: 'always' }), {
        query: 'lenses made by Nikon',
        limit: 5,
      });
      expect(ranking.length).toBeGreaterThan(0);
      expect(trace.llmCalls).toBe(0);
      const warnings = trace.stages.flatMap((s) => s.warnings ?? []);
      expect(warnings).toContain('no language model is configured: the offline plan is used');
      if (name === 'focused')
        expect(warnings).toContain('no language model is configured: the offline ranking is kept');
    }
  });

  it('without a model rank exactly as their offline halves (mor, focused, kar)', async () => {
    const queries = ['lenses made by Nikon', 'rugged camera for wildlife', 'products by Canon', 'Nikon'];
    for (const name of ['mor', 'focused', 'kar']) {
      const online = await build(name);
      const offline = await build(`${name}-offline`);
      for (const query of queries) {
        const ranked = async (retriever: typeof online) =>
          (await retrieve(retriever, { query, limit: 10 })).ranking.map((c) => c.id);
        expect(await ranked(online), `${name}: ${query}`).toEqual(await ranked(offline));
      }
    }
  });

  it('mor asks the model for paths and meters the call', async () => {
    const model = stageModel();
    const { ranking, trace } = await retrieve(
      await build('mor', { languageModel: model, llmWhen: 'always' }),
      {
        query: 'lenses made by Nikon',
        limit: 5,
      },
    );
    expect(trace).toMatchObject({ llmCalls: 1, inputTokens: 400, outputTokens: 60 });
    expect(calls(trace)).toEqual(['planner:plan paths:ok']);
    expect(trace.plan?.raw).toBe(pathPlan);
    expect(trace.plan?.paths[0]).toMatchObject({ hops: [{ edgeType: 'made_by', direction: 'in' }] });
    // The model's path reached the Nikon lens from the brand.
    const nikkor = ranking.find((c) => c.id === 'p:nikkor');
    expect(nikkor?.trajectories.some((t) => t.path === 0 && t.hops[0]!.node === 'b:nikon')).toBe(true);
  });

  it("mor executes a trusted model plan: what its paths reach from every anchor leads, by its restriction, the question's exclusion last", async () => {
    const plan = (anchors: string[], restriction: string) =>
      JSON.stringify({
        targetTypes: ['product'],
        anchors: anchors.map((mention) => ({ mention, type: mention === 'Nikon' ? 'brand' : 'category' })),
        paths: anchors.map((anchor) => ({
          anchor,
          hops: [
            {
              edge: anchor === 'Nikon' ? 'made_by' : 'in_category',
              direction: 'in',
              nodeType: 'product',
            },
          ],
        })),
        restriction,
      });
    const ranked = async (query: string, raw: string) => {
      const model = new MockLanguageModelV4({
        doGenerate: async () => textResult(raw, { input: 400, output: 60 }),
      });
      const { ranking, trace } = await retrieve(
        await build('mor', { languageModel: model, llmWhen: 'always' }),
        { query, limit: 10 },
      );
      expect(trace.llmCalls).toBe(1);
      return { ids: ranking.map((c) => c.id), plan: trace.plan! };
    };
    // Nikon's DSLRs (the intersection of both anchors' paths), though the question's words describe
    // the Nikon lens best: MoR's mixed ranking put the lens first.
    const dslr = await ranked(
      'DSLR from Nikon that a telephoto zoom lens for birds fits',
      plan(['Nikon', 'DSLR cameras'], 'that a telephoto zoom lens for birds fits'),
    );
    expect(dslr.plan.paths.map((p) => p.endpoints)).toEqual([
      ['p:d850', 'p:d3500'],
      ['p:d850', 'p:d3500'],
    ]);
    expect(dslr.ids.slice(0, 2)).toEqual(['p:d850', 'p:d3500']);
    // "(not telephoto)": the telephoto lenses are excluded, after everything else.
    const notTele = await ranked(
      'Nikon gear for birds and wildlife (not telephoto)',
      plan(['Nikon'], 'gear for birds and wildlife (not telephoto)'),
    );
    expect(notTele.plan.exclusion).toBe('telephoto');
    expect(notTele.ids[0]).toBe('p:d850');
    const telephoto = ['p:nikkor', 'p:ef'];
    const kept = notTele.ids.filter((id) => !telephoto.includes(id));
    expect(notTele.ids.slice(0, kept.length)).toEqual(kept);
    expect(notTele.ids).toContain('p:nikkor');
  });

  it("mor ranks the model's plans on a trained store as on an untrained one (the fitted reranker is for offline plans)", async () => {
    // A fitted reranker that puts text before structure, as one fitted on wrong offline paths does.
    const artifacts = memoryArtifacts();
    await trajectoryRerankerArtifact.save(artifacts, 'mor-offline.reranker-trajectory', {
      linear: {
        features: [...trajectoryFeatures],
        weights: trajectoryFeatures.map((f) => (f === 'structure' ? -5 : f === 'bm25Global' ? 5 : 0)),
        bias: 0,
        mean: trajectoryFeatures.map(() => 0),
        scale: trajectoryFeatures.map(() => 1),
      },
    });
    const trained = { ...toyContext(), artifacts };
    const untrained = { ...toyContext(), artifacts: memoryArtifacts() };
    const query = 'lenses made by Nikon';
    const ranked = async (name: string, context: typeof trained, options: StackCreateOptions = {}) =>
      (await retrieve(await build(name, options, context), { query, limit: 10 })).ranking.map((c) => c.id);
    // The artifact is read: the offline stack's order changes with it (on a question whose query graph
    // the words do not confirm: a confirmed one's endpoints come first in either).
    const offline = async (context: typeof trained) =>
      (
        await retrieve(await build('mor-offline', {}, context), { query: 'Nikon lenses', limit: 10 })
      ).ranking.map((c) => c.id);
    expect(await offline(trained)).not.toEqual(await offline(untrained));
    const withModel = () => ({ languageModel: stageModel(), llmWhen: 'always' as const });
    expect(await ranked('mor', trained, withModel())).toEqual(await ranked('mor', untrained, withModel()));
  });

  it('mor under unsure asks only when the offline planner is less sure than the threshold', async () => {
    const never = stageModel();
    const { trace } = await retrieve(await build('mor', { languageModel: never, llmWhen: 'never' }), {
      query: 'lenses made by Nikon',
    });
    expect(trace.llmCalls).toBe(0);
    expect(never.doGenerateCalls).toHaveLength(0);
  });

  it('focused writes Cypher, grounds it, reranks listwise, and reports both calls', async () => {
    const model = stageModel();
    const { ranking, trace } = await retrieve(await build('focused', { languageModel: model }), {
      query: 'lenses made by Nikon',
      limit: 5,
    });
    expect(trace).toMatchObject({ llmCalls: 2, inputTokens: 500, outputTokens: 38 });
    expect(calls(trace)).toEqual(['planner:write cypher:ok', 'reranker:rank candidates:ok']);
    expect(trace.plan?.cypher).toBe(cypher);
    // Grounded: the Nikon lens first; the listwise answer [2, 1] swaps the first two.
    expect(ranking.map((c) => c.id)).toContain('p:nikkor');
    expect(ranking[0]!.scores.offline).toBeDefined();
  });

  it('focused keeps the offline ranking when the budget is spent by the planner', async () => {
    const { trace } = await retrieve(await build('focused', { languageModel: stageModel(), llmBudget: 1 }), {
      query: 'lenses made by Nikon',
    });
    expect(trace.llmCalls).toBe(1);
    const reranker = trace.stages.find((s) => s.kind === 'reranker' && s.name !== 'query-graph')!;
    expect(reranker.warnings).toEqual([
      expect.stringMatching(
        /^rank candidates: LLM-call budget of 1 per query exhausted; the offline ranking is kept/,
      ),
    ]);
    expect(reranker.modelCalls).toEqual([expect.objectContaining({ outcome: 'budget-exceeded' })]);
  });

  it('refuses an llmWhen it does not know', async () => {
    await expect(build('mor', { llmWhen: 'sometimes' as never })).rejects.toMatchObject({
      code: 'WEFT_BAD_INPUT',
    });
  });
});

const toySet = toyTrainingSet(
  [
    ['products by Nikon', ['p:d850', 'p:d3500', 'p:nikkor']],
    ['products by Canon', ['p:eos', 'p:ef']],
    ['products by Leica', ['p:q2']],
    ['what works with the Canon EOS 90D', ['p:ef']],
    ['what works with the Nikon D850', ['p:nikkor']],
    ['lenses made by Nikon', ['p:nikkor']],
    ['lenses made by Canon', ['p:ef']],
    ['telephoto lens for birds', ['p:nikkor']],
  ],
  2,
);

describe('training mor', () => {
  it('fits the offline parts when missing, then the unsure threshold and few-shot examples, read back without a warning', async () => {
    const artifacts = memoryArtifacts();
    const store = { context: { ...toyContext(), artifacts } };
    const result = await trainStacks({
      registry: createStackRegistry(),
      store,
      sets: [toySet],
      artifacts,
      stacks: ['mor'],
    });
    expect([...artifacts.stored.keys()].sort()).toEqual([
      'mor-offline.reranker-trajectory',
      'mor.planner-llm-paths',
      'planner-schema.model',
    ]);
    // What mor reads was missing: the steps that write it were fitted first, once each.
    expect(result.steps.map((s) => s.step)).toEqual(['planner-schema', 'mor-offline', 'mor']);
    const report = result.steps[2]!;
    expect(report.summary).toMatch(
      /^unsure threshold \d\.\d{3} \(val: .* of 4 queries.*\); \d few-shot examples$/,
    );
    const stored = (
      artifacts.stored.get('mor.planner-llm-paths') as {
        value: { threshold: number; val: { queries: number } };
      }
    ).value;
    expect(stored.val.queries).toBe(4);
    expect(stored.threshold).toBe((report.details as { threshold: number }).threshold);

    const model = stageModel();
    const { trace } = await retrieve(await createStack('mor', store, { languageModel: model }), {
      query: 'products by Nikon',
    });
    expect(trace.stages.flatMap((s) => s.warnings ?? [])).toEqual([]);
  });
});

// Every LLM stack is a RetrieverV1 with a model that answers and without one.
for (const name of ['mor', 'focused']) {
  runRetrieverSuite({
    name: `${name} stack (mock model, always asked)`,
    create: (context) =>
      createStack(
        name,
        { context },
        {
          languageModel: stageModel(),
          llmWhen: 'always',
        },
      ),
  });
  runRetrieverSuite({
    name: `${name} stack (no model)`,
    create: (context) => createStack(name, { context }),
  });
}
