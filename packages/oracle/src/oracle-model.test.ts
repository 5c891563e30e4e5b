import { purposeOptions, retrieve } from '@weft/core';
import { toyContext, toySkb } from '@weft/core/test';
import { callStructured, pathPlanOutputSchema } from '@weft/llm';
import { routerOutputSchema } from '@weft/planner-hybgrag';
import { parseCypher } from '@weft/planner-llm-cypher';
import type { RetrievalTrace, SkbQuery } from '@weft/spec';
import { createStack } from '@weft/stacks';
import { generateText } from 'ai';
import { describe, expect, it } from 'vitest';
import { type GoldPlan, goldAnnotations, resolveGoldPlans } from './gold-plans.ts';
import {
  corruptPlans,
  cypherAnswer,
  oracleLanguageModel,
  pathPlanAnswer,
  questionOf,
  routeAnswer,
} from './oracle-model.ts';

const skb = toySkb();

/**
 * Questions whose words alone would mislead: "Canon" is named, but the gold anchor is Nikon's lens
 * or the DSLR category.
 */
const queries: SkbQuery[] = [
  {
    id: 'q1',
    query: 'Which telephoto zoom lens for birds is made by Nikon, unlike the Canon ones?',
    answers: ['p:nikkor'],
    split: 'val',
    meta: {
      anchors: ['b:nikon'],
      relational_part: 'X --made_by--> A',
      textual_requirement: 'telephoto zoom lens for birds',
    },
  },
  {
    id: 'q2',
    query: 'Which lens works with the Nikon D850?',
    answers: ['p:nikkor'],
    split: 'val',
    meta: { anchors: ['p:d850'], relational_part: 'X --compatible_with--> A', textual_requirement: 'lens' },
  },
];

async function goldPlans(): Promise<GoldPlan[]> {
  const context = toyContext({ vectors: false });
  return resolveGoldPlans(goldAnnotations(queries, { schema: skb.schema }), {
    graph: context.graph,
    answers: new Map(queries.map((q) => [q.id, q.answers])),
  });
}

const modelCalls = (trace: RetrievalTrace) =>
  trace.stages.flatMap((s) =>
    (s.modelCalls ?? [])
      .filter((c) => c.kind === 'language')
      .map((c) => `${s.kind}:${c.purpose}:${c.outcome}`),
  );

describe('the oracle model', () => {
  it('finds the question in a prompt: the last JSON literal after "Question:"', () => {
    expect(questionOf('Question: "example"\nPlan: {}\n\nQuestion: "the \\"real\\" one"\nPlan:')).toBe(
      'the "real" one',
    );
    expect(questionOf('no question')).toBeUndefined();
  });

  it('writes Cypher the Cypher planner parses, and router actions the router schema accepts', async () => {
    const [plan] = await goldPlans();
    const cypher = cypherAnswer(plan!);
    expect(cypher).toBe(
      'MATCH (a0:brand {name: "Nikon"})<-[:made_by]-(x:product) WHERE x.text CONTAINS "Which telephoto zoom lens for birds is made by, unlike the Canon ones" RETURN x',
    );
    const parsed = parseCypher(cypher);
    expect(parsed.returns).toEqual(['x']);
    expect(parsed.relationships).toMatchObject([{ types: ['made_by'], direction: 'in' }]);
    expect(routerOutputSchema.parse(JSON.parse(routeAnswer(plan!)))).toMatchObject({
      module: 'hybrid',
      entities: [{ mention: 'Nikon', relations: [{ edge: 'made_by', direction: 'in' }] }],
    });
  });

  it('gives mor the gold path plan: the gold anchor is linked and the answer comes first', async () => {
    const model = oracleLanguageModel({ plans: await goldPlans() });
    const mor = await createStack('mor', { context: toyContext() }, {
      languageModel: model,
      llmWhen: 'always',
    } as never);
    const { ranking, trace } = await retrieve(mor, { query: queries[0]!.query, limit: 5 });
    expect(modelCalls(trace)).toEqual(['planner:plan paths:ok']);
    expect(JSON.parse(trace.plan!.raw!)).toMatchObject({
      targetTypes: ['product'],
      anchors: [{ mention: 'Nikon', type: 'brand' }],
      paths: [{ anchor: 'Nikon', hops: [{ edge: 'made_by', direction: 'in', nodeType: 'product' }] }],
      restriction: 'Which telephoto zoom lens for birds is made by, unlike the Canon ones',
    });
    expect(trace.plan!.paths[0]).toMatchObject({ hops: [{ edgeType: 'made_by', direction: 'in' }] });
    expect(ranking[0]!.id).toBe('p:nikkor');
    expect(model.stats()).toEqual({ calls: { 'plan-paths': 1 }, unknownQuestions: 0 });
  });

  it('gives focused the gold Cypher and keeps the listwise reranker to the given order', async () => {
    const model = oracleLanguageModel({ plans: await goldPlans() });
    const focused = await createStack('focused', { context: toyContext() }, { languageModel: model });
    const { ranking, trace } = await retrieve(focused, { query: queries[1]!.query, limit: 5 });
    expect(modelCalls(trace)).toEqual(['planner:write cypher:ok', 'reranker:rank candidates:ok']);
    expect(trace.plan!.cypher).toContain('(a0:product {name: "Nikon D850"})<-[:compatible_with]-(x:product)');
    expect(ranking[0]!.id).toBe('p:nikkor');
    // The listwise reranker's output against its input: the query-graph reranker's ranking before it.
    const reranker = trace.stages.find((s) => s.kind === 'reranker' && s.name !== 'query-graph')!;
    const before = trace.stages.find((s) => s.kind === 'reranker' && s.name === 'query-graph')!;
    const ids = (output: unknown) => (output as { top: { id: string }[] }).top.map((c) => c.id);
    expect(ids(reranker.output)).toEqual(ids(before.output));
    expect(model.stats().calls).toEqual({ 'write-cypher': 1, 'rank-list': 1 });
  });

  it('answers other prompts neutrally, and a question it has no plan for with {}', async () => {
    const model = oracleLanguageModel({ plans: await goldPlans() });
    const ask = async (purpose: string, prompt: string) =>
      (await generateText({ model, prompt, providerOptions: purposeOptions(purpose) })).text;
    expect(
      JSON.parse(await ask('rank candidates', 'Question: "x"\nCandidates:\n[1] a\n[2] b\n[3] c\nRanking:')),
    ).toEqual({ ranking: [1, 2, 3] });
    expect(JSON.parse(await ask('validate results', 'Question: "x"\nTop results:'))).toMatchObject({
      accept: true,
    });
    expect(JSON.parse(await ask('compare two candidates', 'Question: "x"'))).toMatchObject({ better: 'tie' });
    expect(await ask('plan paths', 'Question: "a question nobody asked"\nPlan:')).toBe('{}');
    // A question an expander lengthened (KAR appends to it) is known by its start, not by a prefix of a word.
    const lengthened = `${queries[1]!.query} lens for the D850 compatible_with`;
    expect(
      JSON.parse(await ask('plan paths', `Question: ${JSON.stringify(lengthened)}\nPlan:`)).anchors,
    ).toEqual([{ mention: 'Nikon D850', type: 'product' }]);
    expect(
      await ask('plan paths', `Question: ${JSON.stringify(`${queries[1]!.query.slice(0, -1)}x`)}\nPlan:`),
    ).toBe('{}');
    expect(model.stats().unknownQuestions).toBe(2);
    // Without a purpose, the wording tells the task.
    const plan = await callStructured({
      model,
      purpose: 'something else',
      instructions: 'You plan retrieval over a typed knowledge graph whose nodes carry text',
      prompt: `Question: ${JSON.stringify(queries[1]!.query)}\nPlan:`,
      schema: pathPlanOutputSchema,
    });
    expect(plan.ok && plan.value.anchors).toEqual([{ mention: 'Nikon D850', type: 'product' }]);
  });
});

describe('corruptPlans', () => {
  const plans: GoldPlan[] = Array.from({ length: 40 }, (_, i) => ({
    queryId: `q${i}`,
    question: `question ${i}`,
    anchors: [
      { id: `b:${i}`, name: `Brand ${i}`, mention: `brand ${i}`, type: i % 2 ? 'brand' : 'category' },
    ],
    paths: [{ anchor: 0, hops: [{ edgeType: 'made_by', direction: 'in' }] }],
    targetTypes: ['product'],
    restriction: '',
  }));

  it('makes exactly noise × n plans wrong, the same ones for the same seed, by anchor or by relation', () => {
    const { plans: noisy, corrupted } = corruptPlans(plans, { noise: 0.3, seed: 7, schema: skb.schema });
    expect(corrupted.size).toBe(12);
    const changed = noisy.filter((p, i) => JSON.stringify(p) !== JSON.stringify(plans[i]));
    expect(changed.map((p) => p.queryId).sort()).toEqual([...corrupted.keys()].sort());
    const kinds = [...corrupted.values()];
    expect(kinds).toContain('anchor');
    expect(kinds).toContain('relation');
    for (const plan of changed) {
      const original = plans.find((p) => p.queryId === plan.queryId)!;
      if (corrupted.get(plan.queryId) === 'anchor') {
        expect(plan.anchors[0]!.id).not.toBe(original.anchors[0]!.id);
        // Another question's anchor of the same type.
        expect(plan.anchors[0]!.type).toBe(original.anchors[0]!.type);
      } else expect(plan.paths[0]!.hops[0]!.edgeType).not.toBe('made_by');
    }
    // Same seed, other order: the same plans; another seed: other plans.
    const again = corruptPlans([...plans].reverse(), { noise: 0.3, seed: 7, schema: skb.schema });
    expect([...again.corrupted].sort()).toEqual([...corrupted].sort());
    const other = corruptPlans(plans, { noise: 0.3, seed: 8, schema: skb.schema });
    expect([...other.corrupted.keys()].sort()).not.toEqual([...corrupted.keys()].sort());
    expect(corruptPlans(plans, { noise: 0, schema: skb.schema }).corrupted.size).toBe(0);
    expect(() => corruptPlans(plans, { noise: 1.5, schema: skb.schema })).toThrow(/noise must be in/);
  });

  it('the model answers with the wrong plan: another anchor or another relation', async () => {
    const gold = await goldPlans();
    const { plans: noisy, corrupted } = corruptPlans(gold, { noise: 1, seed: 1, schema: skb.schema });
    expect(corrupted.size).toBe(2);
    const model = oracleLanguageModel({ plans: noisy });
    for (const [i, plan] of gold.entries()) {
      const { text } = await generateText({
        model,
        prompt: `Question: ${JSON.stringify(plan.question)}\nPlan:`,
        providerOptions: purposeOptions('plan paths'),
      });
      const answer = pathPlanOutputSchema.parse(JSON.parse(text));
      const right = pathPlanOutputSchema.parse(JSON.parse(pathPlanAnswer(plan)));
      expect(answer).not.toEqual(right);
      if (corrupted.get(plan.queryId) === 'anchor') {
        // Another question's anchor, named as the store names it.
        expect(answer.anchors[0]!.mention).toBe(noisy[i]!.anchors[0]!.name);
        expect(noisy[i]!.anchors[0]!.id).not.toBe(plan.anchors[0]!.id);
      } else expect(answer.paths[0]!.hops[0]!.edge).not.toBe(right.paths[0]!.hops[0]!.edge);
    }
  });
});
