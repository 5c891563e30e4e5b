import { artifactEnvelope, NaiveBayes, naiveBayesProbabilities } from '@weft/kit';
import { toyContext, memoryArtifacts } from '@weft/core/test';
import { describe, expect, it } from 'vitest';
import { LexicalPlanner, lexicalPlannerArtifact, noRelation } from './lexical-planner.ts';
import { trainLexicalPlanner } from './train-lexical-planner.ts';

const examples = [
  { query: 'lenses made by Nikon', answers: ['p:nikkor'] },
  { query: 'cameras made by Nikon', answers: ['p:d850', 'p:d3500'] },
  { query: 'what lens works with the Canon EOS 90D', answers: ['p:ef'] },
  { query: 'a compact street camera', answers: ['p:q2'] },
];

describe('naive Bayes', () => {
  it('prefers the label whose words the query uses, and falls back to priors on unknown words', () => {
    const nb = new NaiveBayes();
    nb.add('a', ['made', 'by'], 1);
    nb.add('b', ['works', 'with'], 3);
    const p = naiveBayesProbabilities(nb.model(), ['made']);
    expect(p.get('a')!).toBeGreaterThan(p.get('b')!);
    const prior = naiveBayesProbabilities(nb.model(), ['unseen']);
    expect(prior.get('b')!).toBeGreaterThan(prior.get('a')!);
    expect([...p.values()].reduce((s, v) => s + v, 0)).toBeCloseTo(1);
  });
});

describe('LexicalPlanner', () => {
  it('untrained: anchors only, every target type, no path, and a warning when its artifact is missing', async () => {
    const context = { ...toyContext(), artifacts: memoryArtifacts(), warn: (m: string) => warnings.push(m) };
    const warnings: string[] = [];
    const plan = await new LexicalPlanner({ artifact: 'default.planner-lexical' }).doPlan({
      query: 'lenses made by Nikon',
      feedback: [],
      context,
    });
    expect(plan.anchors.some((a) => a.candidates[0]?.id === 'b:nikon')).toBe(true);
    expect(plan.targetTypes).toEqual([]);
    expect(plan.paths).toEqual([]);
    expect(warnings[0]).toMatch(/"default.planner-lexical" not found/);
  });

  it('untrained: plans the answer type the question asks for by name, and none when it asks for none', async () => {
    const context = toyContext();
    const planner = new LexicalPlanner();
    const asked = await planner.doPlan({ query: 'Which products are made by Nikon?', feedback: [], context });
    expect(asked.targetTypes).toEqual([{ type: 'product', score: 1 }]);
    // A type outside the schema's target types is no answer type.
    const brand = await planner.doPlan({ query: 'Which brand makes the D850?', feedback: [], context });
    expect(brand.targetTypes).toEqual([]);
  });

  it('untrained, on request: plans the relations whose names the question spells, from its named mentions', async () => {
    const context = toyContext();
    const query = 'lenses made by Nikon';
    const plan = await new LexicalPlanner({ relationsFromNames: true }).doPlan({
      query,
      feedback: [],
      context,
    });
    const nikon = plan.anchors.findIndex((a) => a.candidates[0]?.id === 'b:nikon');
    expect(nikon).toBeGreaterThanOrEqual(0);
    const fromNikon = plan.paths.filter((p) => p.anchor === nikon).map((p) => p.hops[0]);
    expect(fromNikon).toEqual(
      expect.arrayContaining([
        { edgeType: 'made_by', direction: 'in' },
        { edgeType: 'made_by', direction: 'out' },
      ]),
    );
    expect(plan.paths.every((p) => p.hops[0]!.edgeType === 'made_by')).toBe(true);
    // A question that spells no relation's name gets no path; off by default.
    const none = await new LexicalPlanner({ relationsFromNames: true }).doPlan({
      query: 'a Nikon for birds',
      feedback: [],
      context,
    });
    expect(none.paths).toEqual([]);
    expect((await new LexicalPlanner().doPlan({ query, feedback: [], context })).paths).toEqual([]);
  });

  it('plans a relation whose name the question spells only in half unless `minScore` asks for the whole name', async () => {
    const toy = toyContext();
    // `made_for`: "made by" spells one of its two words.
    const context = {
      ...toy,
      schema: {
        ...toy.schema,
        edgeTypes: [...toy.schema.edgeTypes, { name: 'made_for', from: 'product', to: 'brand' }],
      },
    };
    const planned = async (relationsFromNames: boolean | { minScore: number }) => {
      const plan = await new LexicalPlanner({ relationsFromNames }).doPlan({
        query: 'lenses made by Nikon',
        feedback: [],
        context,
      });
      return new Set(plan.paths.map((p) => `${p.hops[0]!.edgeType} ${p.confidence}`));
    };
    expect(await planned(true)).toEqual(new Set(['made_by 1', 'made_for 0.5']));
    expect(await planned({ minScore: 1 })).toEqual(new Set(['made_by 1']));
  });

  it('adds the nodes a question describes without naming them on request, after the named ones', async () => {
    const context = toyContext();
    const query = 'lenses by the brand that makes rangefinder cameras';
    // The toy shop is too small for calibrated probabilities to be high: every described node joins.
    const plan = await new LexicalPlanner({ minDescribedProbability: 0 }).doPlan({
      query,
      feedback: [],
      context,
    });
    const described = plan.anchors.find((a) => a.candidates[0]?.id === 'b:leica');
    expect(described?.mention).toBe('brand');
    expect(described?.candidates[0]?.named).toBe(false);
    const off = await new LexicalPlanner().doPlan({
      query,
      feedback: [],
      context,
    });
    expect(off.anchors.some((a) => a.candidates[0]?.id === 'b:leica')).toBe(false);
    // A model that training fitted without them turns them off.
    const untaught = { labels: [], priors: [], counts: [], totals: [], vocabulary: 0 };
    const namedOnly = await new LexicalPlanner({
      minDescribedProbability: 0,
      model: { types: untaught, relations: untaught, describedAnchors: false },
    }).doPlan({ query, feedback: [], context });
    expect(namedOnly.anchors.some((a) => a.candidates[0]?.id === 'b:leica')).toBe(false);
  });

  it('trained on the KB: learns the relation from a mention to the answers and plans it as a path', async () => {
    const context = toyContext();
    const model = await trainLexicalPlanner(context, examples);
    expect(model.relations.labels).toContain('made_by|in');
    expect(model.relations.labels).toContain(noRelation);
    expect(model.types.labels).toEqual(['product']);
    const artifacts = memoryArtifacts();
    await artifacts.put(
      's.planner-lexical',
      artifactEnvelope(lexicalPlannerArtifact.kind, lexicalPlannerArtifact.version, model),
    );
    const planner = new LexicalPlanner({ artifact: 's.planner-lexical' });
    const plan = await planner.doPlan({
      query: 'tripods made by Leica',
      feedback: [],
      context: { ...context, artifacts },
    });
    const leica = plan.anchors.findIndex((a) => a.candidates[0]?.id === 'b:leica');
    expect(leica).toBeGreaterThanOrEqual(0);
    const path = plan.paths.find((p) => p.anchor === leica);
    expect(path?.hops[0]).toEqual({ edgeType: 'made_by', direction: 'in' });
    expect(path!.confidence!).toBeGreaterThan(0);
    expect(plan.targetTypes[0]?.type).toBe('product');
  });
});
