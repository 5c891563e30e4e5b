import { purposeOptions, retrieve } from '@weft/core';
import { toyContext } from '@weft/core/test';
import type { RetrievalTrace } from '@weft/spec';
import { createStack } from '@weft/stacks';
import { generateText } from 'ai';
import { describe, expect, it } from 'vitest';
import type { GoldPlan } from './gold-plans.ts';
import { judgedTasks, noisyStages, oracleLanguageModel, type WrongStages } from './oracle-model.ts';
import {
  commentAnswer,
  compareAnswer,
  expandAnswer,
  expertWeightsAnswer,
  judgeAnswer,
  promptTriples,
  rankListAnswer,
  reachedByGoldRoute,
  triedRoutes,
  validateAnswer,
} from './stage-answers.ts';

/** "Which lens works with the Nikon D850?": the answer is the Nikkor, one hop from the D850. */
const plan: GoldPlan = {
  queryId: 'q2',
  question: 'Which lens works with the Nikon D850?',
  anchors: [{ id: 'p:d850', name: 'Nikon D850', type: 'product', mention: 'Nikon D850' }],
  paths: [{ anchor: 0, hops: [{ edgeType: 'compatible_with', direction: 'in' }] }],
  targetTypes: ['product'],
  restriction: 'Which lens works with the',
  answers: [{ id: 'p:nikkor', name: 'AF-S Nikkor 200-500mm', type: 'product' }],
};
const textOnly: GoldPlan = { ...plan, queryId: 'q3', question: 'a lens', anchors: [], paths: [] };

type Mode = { readonly rerank: 'gold' | 'keep'; readonly wrong: boolean };
const gold: Mode = { rerank: 'gold', wrong: false };
const keep: Mode = { rerank: 'keep', wrong: false };
const wrong: Mode = { rerank: 'gold', wrong: true };

const listPrompt = [
  `Question: ${JSON.stringify(plan.question)}`,
  'Candidates:',
  `[1] ${JSON.stringify('Canon EF 100-400mm: Telephoto zoom lens with EF mount.')}`,
  `[2] ${JSON.stringify('Nikon D3500: Entry-level DSLR')}`,
  `[3] ${JSON.stringify('AF-S Nikkor 200-500mm: Telephoto zoom lens with F-mount')}`,
  'Ranking:',
].join('\n');

describe('the oracle on the rerankers', () => {
  it('listwise: the gold answer first, the rest in the given order; keep: the given order; wrong: gold last', () => {
    expect(JSON.parse(rankListAnswer(listPrompt, plan, gold))).toEqual({ ranking: [3, 1, 2] });
    expect(JSON.parse(rankListAnswer(listPrompt, plan, keep))).toEqual({ ranking: [1, 2, 3] });
    expect(JSON.parse(rankListAnswer(listPrompt, plan, wrong))).toEqual({ ranking: [1, 2, 3] });
    const goldFirst = listPrompt.replace('[1]', '[9]').replace('[3]', '[1]').replace('[9]', '[3]');
    expect(JSON.parse(rankListAnswer(goldFirst, plan, wrong))).toEqual({ ranking: [2, 3, 1] });
    expect(JSON.parse(rankListAnswer(goldFirst, plan, gold))).toEqual({ ranking: [1, 2, 3] });
    // A name that only starts like an answer's is not the answer.
    expect(JSON.parse(rankListAnswer(listPrompt.replace('200-500mm:', '200-500mm II:'), plan, gold))).toEqual(
      { ranking: [1, 2, 3] },
    );
  });

  it('pointwise: 10 for a gold answer, 0 for others; pairwise: the gold one of the two', () => {
    const judge = (candidate: string, mode = gold) =>
      JSON.parse(
        judgeAnswer(`Question: "q"\nCandidate: ${JSON.stringify(candidate)}\nJudgement:`, plan, mode),
      ).score;
    expect(judge('AF-S Nikkor 200-500mm: Telephoto')).toBe(10);
    expect(judge('Canon EF 100-400mm: Telephoto')).toBe(0);
    expect(judge('AF-S Nikkor 200-500mm: Telephoto', wrong)).toBe(0);
    expect(judge('Canon EF 100-400mm: Telephoto', keep)).toBe(5);
    const compare = (a: string, b: string, mode = gold) =>
      JSON.parse(
        compareAnswer(
          `Question: "q"\nCandidate A: ${JSON.stringify(a)}\nCandidate B: ${JSON.stringify(b)}\nBetter:`,
          plan,
          mode,
        ),
      ).better;
    expect(compare('Canon EF 100-400mm', 'AF-S Nikkor 200-500mm: lens')).toBe('B');
    expect(compare('AF-S Nikkor 200-500mm', 'Canon EF 100-400mm')).toBe('A');
    expect(compare('AF-S Nikkor 200-500mm', 'Canon EF 100-400mm', wrong)).toBe('B');
    expect(compare('Nikon D3500', 'Canon EF 100-400mm')).toBe('tie');
    expect(compare('AF-S Nikkor 200-500mm', 'Canon EF 100-400mm', keep)).toBe('tie');
  });
});

describe('the oracle on HybGRAG', () => {
  const results = (top: string) =>
    `Question: "q"\nTop results:\n[1] ${JSON.stringify(top)} (product) via text search: "…"\n[2] "Nikon D850" (product) via text search`;

  it('the validator accepts a gold top result and rejects another (wrong: the reverse)', () => {
    expect(JSON.parse(validateAnswer(results('AF-S Nikkor 200-500mm'), plan, false)).accept).toBe(true);
    expect(JSON.parse(validateAnswer(results('Canon EF 100-400mm'), plan, false)).accept).toBe(false);
    expect(JSON.parse(validateAnswer(results('Canon EF 100-400mm'), plan, true)).accept).toBe(true);
    expect(JSON.parse(validateAnswer(results('AF-S Nikkor 200-500mm'), plan, true)).accept).toBe(false);
  });

  it('the validator accepts results that came by the gold route, and a gold answer among the top 3', () => {
    const via = (path: string) =>
      `Question: "q"\nTop results:\n[1] "Canon EF 100-400mm" (product) via ${path}: "…"\n[2] "Nikon D3500" (product) via text search`;
    expect(reachedByGoldRoute(via('"Nikon D850" ←compatible_with— "Canon EF 100-400mm"'), plan)).toBe(true);
    expect(
      JSON.parse(validateAnswer(via('"Nikon D850" ←compatible_with— "Canon EF 100-400mm"'), plan, false)),
    ).toMatchObject({
      accept: true,
      reason: 'the results came by the right route',
    });
    // Another anchor, or another relation: not the gold route.
    expect(reachedByGoldRoute(via('"Nikon" ←made_by— "Canon EF 100-400mm"'), plan)).toBe(false);
    expect(reachedByGoldRoute(via('"Nikon D850" —in_category→ "Lenses"'), plan)).toBe(false);
    expect(JSON.parse(validateAnswer(via('text search'), plan, false)).accept).toBe(false);
    const third = `${via('text search')}\n[3] "AF-S Nikkor 200-500mm" (product) via text search`;
    expect(JSON.parse(validateAnswer(third, plan, false))).toMatchObject({
      accept: true,
      reason: 'the results reach a gold answer',
    });
  });

  it('the commentor points at the module, the wrong entity or the missing one', () => {
    const comment = (action: string, p = plan, isWrong = false) =>
      JSON.parse(
        commentAnswer(`Question: "q"\nAction taken: ${JSON.stringify(action)}\nEntities …`, p, isWrong),
      ).feedback[0];
    expect(comment('text: search the documents of the target types')).toMatchObject({
      kind: 'wrong-module',
    });
    expect(comment('hybrid: Nikon [b:nikon] ←made_by—')).toMatchObject({
      kind: 'incorrect-entity',
      entity: 'b:nikon',
    });
    expect(
      comment('hybrid: Nikon D850 [p:d850] ←compatible_with— ∩ Nikon [b:nikon] ←made_by—'),
    ).toMatchObject({
      kind: 'incorrect-entity',
      entity: 'b:nikon',
    });
    expect(comment('hybrid: ')).toMatchObject({ kind: 'missing-entity', entity: 'Nikon D850' });
    // The gold route itself failed: what is left is the other module.
    expect(comment('hybrid: Nikon D850 [p:d850] ←compatible_with—')).toMatchObject({ kind: 'wrong-module' });
    expect(comment('hybrid: Nikon [b:nikon] ←made_by—', textOnly)).toMatchObject({ kind: 'no-entity' });
    // Wrong: elsewhere.
    expect(comment('hybrid: Nikon [b:nikon] ←made_by—', plan, true)).toMatchObject({ kind: 'wrong-module' });
    expect(comment('text: search the documents of the target types', plan, true)).toMatchObject({
      kind: 'no-entity',
    });
  });

  it('reads the routes earlier rounds tried', () => {
    const prompt = (...actions: string[]) =>
      `Question: "q"\nEarlier rounds (choose a different action that fixes what the critic found):\n${actions.map((a, i) => `- round ${i}: ${a}; critic: wrong-module: x`).join('\n')}\nAction:`;
    expect(triedRoutes('Question: "q"\nAction:', plan)).toEqual({ gold: false, text: false });
    expect(triedRoutes(prompt('hybrid: Nikon D850 [p:d850] ←compatible_with—'), plan)).toEqual({
      gold: true,
      text: false,
    });
    expect(
      triedRoutes(
        prompt('hybrid: Nikon [b:nikon] ←made_by—', 'text: search the documents of the target types'),
        plan,
      ),
    ).toEqual({ gold: false, text: true });
  });
});

describe('the oracle on KAR and MixRAG', () => {
  const karPrompt = [
    `Question: ${JSON.stringify(plan.question)}`,
    'Facts from the knowledge base:',
    `- "AF-S Nikkor 200-500mm" ("Telephoto zoom lens") —compatible_with→ "Nikon D850" ("Full-frame DSLR")`,
    `- "Nikon D850" ("Full-frame DSLR") —made_by→ "Nikon" ("Japanese maker")`,
    `- "Canon EF 100-400mm" ("Telephoto zoom lens") —compatible_with→ "Canon EOS 90D" ("DSLR")`,
    'Write 3 expansions, each one or two sentences.',
  ].join('\n');

  it('reads the document triples of the prompt', () => {
    expect(promptTriples(karPrompt)).toEqual([
      { head: 'AF-S Nikkor 200-500mm', relation: 'compatible_with', tail: 'Nikon D850' },
      { head: 'Nikon D850', relation: 'made_by', tail: 'Nikon' },
      { head: 'Canon EF 100-400mm', relation: 'compatible_with', tail: 'Canon EOS 90D' },
    ]);
  });

  it('expands with the gold answers among the facts along the gold relation, else those facts, else the question', () => {
    expect(JSON.parse(expandAnswer(karPrompt, plan))).toEqual({ expansions: ['AF-S Nikkor 200-500mm'] });
    // No gold answer among the facts along the gold relation: every node they reach.
    const otherAnswer: GoldPlan = { ...plan, answers: [{ id: 'p:x', name: 'Elsewhere', type: 'product' }] };
    const twoFacts = karPrompt.replace(
      '- "Canon EF',
      '- "Nikon D850" ("DSLR") —compatible_with→ "Leica Q2" ("Compact")\n- "Canon EF',
    );
    expect(JSON.parse(expandAnswer(twoFacts, otherAnswer))).toEqual({
      expansions: ['AF-S Nikkor 200-500mm, Leica Q2'],
    });
    // Facts along another relation, or none: the question itself.
    const made: GoldPlan = {
      ...plan,
      paths: [{ anchor: 0, hops: [{ edgeType: 'in_category', direction: 'out' }] }],
    };
    expect(JSON.parse(expandAnswer(karPrompt, made))).toEqual({ expansions: [plan.question] });
    expect(JSON.parse(expandAnswer(karPrompt, textOnly))).toEqual({ expansions: [textOnly.question] });
  });

  it('weighs the experts by the gold path: structure for a path, text without one; wrong: the other', () => {
    const structure = JSON.parse(expertWeightsAnswer(plan, false));
    expect(structure).toEqual({ entity: 0.5, relation: 0.35, subgraph: 0.15 });
    const twoAnchors: GoldPlan = {
      ...plan,
      anchors: [...plan.anchors, { id: 'b:nikon', name: 'Nikon', type: 'brand', mention: 'Nikon' }],
      paths: [...plan.paths, { anchor: 1, hops: [{ edgeType: 'made_by', direction: 'in' }] }],
    };
    const subgraph = JSON.parse(expertWeightsAnswer(twoAnchors, false));
    expect(subgraph.subgraph).toBeGreaterThan(subgraph.relation);
    expect(JSON.parse(expertWeightsAnswer(textOnly, false))).toEqual({ entity: 1, relation: 0, subgraph: 0 });
    expect(JSON.parse(expertWeightsAnswer(plan, true))).toEqual({ entity: 1, relation: 0, subgraph: 0 });
    expect(JSON.parse(expertWeightsAnswer(textOnly, true))).toEqual(structure);
  });
});

describe('noisyStages', () => {
  const plans: GoldPlan[] = Array.from({ length: 40 }, (_, i) => ({
    ...plan,
    queryId: `q${i}`,
    question: `question ${i}`,
  }));

  it('makes exactly noise × n answers of each judged stage wrong, the same for the same seed, others per stage', () => {
    const wrongs = noisyStages(plans, { noise: 0.3, seed: 7 });
    expect([...wrongs.keys()].sort()).toEqual([...judgedTasks].sort());
    for (const ids of wrongs.values()) expect(ids.size).toBe(12);
    const again = noisyStages([...plans].reverse(), { noise: 0.3, seed: 7 });
    for (const task of judgedTasks)
      expect([...again.get(task)!].sort()).toEqual([...wrongs.get(task)!].sort());
    const other = noisyStages(plans, { noise: 0.3, seed: 8 });
    expect([...other.get('validate')!].sort()).not.toEqual([...wrongs.get('validate')!].sort());
    // The stages are drawn apart: not all the same queries.
    expect([...wrongs.get('validate')!].sort()).not.toEqual([...wrongs.get('rank-list')!].sort());
    expect(noisyStages(plans, { noise: 0 }).get('validate')!.size).toBe(0);
    expect(() => noisyStages(plans, { noise: -0.1 })).toThrow(/noise must be in/);
  });

  it('the model answers the chosen queries wrong and the others right', async () => {
    const wrongs: WrongStages = new Map([['rank-list', new Set(['q2'])]]);
    const other: GoldPlan = { ...plan, queryId: 'q9', question: 'Which lens fits the Nikon D850?' };
    const model = oracleLanguageModel({ plans: [plan, other], wrong: wrongs });
    const rank = async (question: string) =>
      JSON.parse(
        (
          await generateText({
            model,
            prompt: listPrompt.replace(JSON.stringify(plan.question), JSON.stringify(question)),
            providerOptions: purposeOptions('rank candidates'),
          })
        ).text,
      ).ranking;
    expect(await rank(plan.question)).toEqual([1, 2, 3]);
    expect(await rank(other.question)).toEqual([3, 1, 2]);
  });
});

const modelCalls = (trace: RetrievalTrace) =>
  trace.stages.flatMap((s) =>
    (s.modelCalls ?? [])
      .filter((c) => c.kind === 'language')
      .map((c) => `${s.kind}:${c.purpose}:${c.outcome}`),
  );

describe('a stack end to end on the oracle', () => {
  // "Nikon telephoto zoom lens": the text ranks Canon's lens as high as Nikon's; the gold plan
  // and the gold reranking put the Nikkor first.
  const question = 'Which telephoto zoom lens is compatible with the Nikon D850?';
  const goldPlan: GoldPlan = {
    ...plan,
    question,
    restriction: 'Which telephoto zoom lens is compatible with the',
  };

  it('focused: the listwise reranker puts the gold answer first; with rerank keep the given order stands', async () => {
    // "Which Nikon product works for wildlife?": the gold plan leaves Nikon's three products, and
    // the text ranks the D850 (a camera "for wildlife") above the Nikkor lens the judge wanted.
    const wildlife = 'Which Nikon product works for wildlife?';
    const nikon: GoldPlan = {
      ...plan,
      question: wildlife,
      anchors: [{ id: 'b:nikon', name: 'Nikon', type: 'brand', mention: 'Nikon' }],
      paths: [{ anchor: 0, hops: [{ edgeType: 'made_by', direction: 'in' }] }],
      restriction: '',
    };
    const run = async (rerank: 'gold' | 'keep') => {
      const model = oracleLanguageModel({ plans: [nikon], rerank });
      const focused = await createStack('focused', { context: toyContext() }, { languageModel: model });
      return retrieve(focused, { query: wildlife, limit: 5 });
    };
    const right = await run('gold');
    expect(modelCalls(right.trace)).toEqual(['planner:write cypher:ok', 'reranker:rank candidates:ok']);
    expect(right.ranking.map((c) => c.id).slice(0, 3)).toEqual(['p:nikkor', 'p:d850', 'p:d3500']);
    const kept = await run('keep');
    expect(kept.ranking.map((c) => c.id).slice(0, 3)).toEqual(['p:d850', 'p:nikkor', 'p:d3500']);
    // The listwise reranker's output against its input: the query-graph reranker's ranking before it.
    const reranker = kept.trace.stages.find((s) => s.kind === 'reranker' && s.name !== 'query-graph')!;
    const before = kept.trace.stages.find((s) => s.kind === 'reranker' && s.name === 'query-graph')!;
    const ids = (output: unknown) => (output as { top: { id: string }[] }).top.map((c) => c.id);
    expect(ids(reranker.output)).toEqual(ids(before.output));
  });

  it('hybgrag: the critic accepts the gold answer on the first round (two calls)', async () => {
    const model = oracleLanguageModel({ plans: [goldPlan] });
    const hybgrag = await createStack('hybgrag', { context: toyContext() }, { languageModel: model });
    const { ranking, trace } = await retrieve(hybgrag, { query: question, limit: 5 });
    expect(ranking[0]!.id).toBe('p:nikkor');
    expect(modelCalls(trace)).toEqual(['planner:route:ok', 'critic:validate results:ok']);
    expect(model.stats().calls).toEqual({ route: 1, validate: 1 });
  });

  it('kar: the expansion names the gold answer among the facts, which then ranks first', async () => {
    const model = oracleLanguageModel({ plans: [goldPlan] });
    const kar = await createStack('kar', { context: toyContext() }, { languageModel: model });
    const { ranking, trace } = await retrieve(kar, { query: question, limit: 5 });
    expect(modelCalls(trace)).toEqual(['expander:expand query:ok']);
    expect(trace.stages.find((s) => s.kind === 'expander')!.output).toMatchObject({
      expansion: 'AF-S Nikkor 200-500mm',
    });
    expect(ranking[0]!.id).toBe('p:nikkor');
    expect(model.stats().calls).toEqual({ expand: 1 });
  });

  it("mixrag: the gate weighs the experts with the oracle's weights", async () => {
    const model = oracleLanguageModel({ plans: [goldPlan] });
    const mixrag = await createStack('mixrag', { context: toyContext() }, { languageModel: model });
    const { ranking, trace } = await retrieve(mixrag, { query: question, limit: 5 });
    expect(modelCalls(trace)).toEqual(['traverser:weigh experts:ok']);
    expect(ranking[0]!.scores).toMatchObject({ gateEntity: 0.5, gateRelation: 0.35, gateSubgraph: 0.15 });
    expect(model.stats().calls).toEqual({ 'weigh-experts': 1 });
  });
});
