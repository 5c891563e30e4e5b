import { runTraverserSuite, toyNikonPlan } from '@weft/conformance';
import { emptyPlan } from '@weft/kit';
import { MockLanguageModelV4, textResult, toyContext } from '@weft/core/test';
import type { Plan } from '@weft/spec';
import { describe, expect, it } from 'vitest';
import {
  expertNames,
  fitExpertGate,
  gateFeatureNames,
  gateWeights,
  unnamedRelationShare,
  untrainedExpertWeights,
  untrainedGate,
  untrainedWeights,
} from './expert-gate.ts';
import { MixtureTraverser } from './mixture-traverser.ts';
import { trainMixtureGate } from './train-mixture-gate.ts';

runTraverserSuite({ name: 'MixtureTraverser', create: async () => new MixtureTraverser() });

const context = toyContext({ vectors: false });

describe('MixtureTraverser', () => {
  it('runs three experts: entities by text, triples around the named brand, and a Steiner tree', async () => {
    const traverser = new MixtureTraverser();
    const outputs = await traverser.experts('Nikon gear for wildlife', toyNikonPlan(), context);
    expect(outputs.rankings.entity[0]).toBeDefined();
    // "Nikon D850 made by Nikon" and friends: Nikon's products lead the relation expert.
    expect(new Set(outputs.rankings.relation.slice(0, 3))).toEqual(
      new Set(['p:d850', 'p:d3500', 'p:nikkor']),
    );
    expect(outputs.relation.triples[0]!.text).toMatch(/Nikon/);
    // The tree is connected through real edges and holds the named brand (its largest prize).
    expect(outputs.subgraph.nodes.has('b:nikon')).toBe(true);
    expect(outputs.subgraph.triples.length).toBe(outputs.subgraph.nodes.size - 1);
    for (const id of outputs.rankings.subgraph) expect(outputs.subgraph.nodes.has(id)).toBe(true);
    expect(outputs.features).toHaveLength(gateFeatureNames.length);
  });

  it('mixes the experts by the gate: all weight on one expert gives that expert’s order', async () => {
    const traverser = new MixtureTraverser();
    const outputs = await traverser.experts('Nikon gear for wildlife', toyNikonPlan(), context);
    for (const [k, name] of expertNames.entries()) {
      const weights = expertNames.map((_, j) => (j === k ? 1 : 0));
      const ranked = traverser
        .candidates(outputs, weights, 50)
        .filter((c) => c.score > 0)
        .map((c) => c.id);
      expect(ranked).toEqual(outputs.rankings[name].slice(0, ranked.length));
    }
    const mixed = traverser.candidates(outputs, [0.5, 0.3, 0.2], 50);
    expect(mixed[0]!.scores).toMatchObject({ gateEntity: 0.5, gateRelation: 0.3, gateSubgraph: 0.2 });
  });

  it('gives a query that is only a name the node it names first, when that node can be an answer', async () => {
    const named = (query: string, id: string, type: string): Plan => ({
      ...emptyPlan(query, context.schema),
      anchors: [{ mention: query, confidence: 0.9, candidates: [{ id, type, score: 1 }] }],
    });
    const traverse = (query: string, id: string, type: string) =>
      new MixtureTraverser().doTraverse({ query, plan: named(query, id, type), limit: 10, context });
    const [first] = await traverse('Nikon D3500', 'p:d3500', 'product');
    expect(first?.id).toBe('p:d3500');
    expect(first!.score).toBeGreaterThan(1);
    // A brand is no answer here (products are): it is no candidate, and nothing leads by name.
    expect((await traverse('Nikon', 'b:nikon', 'brand')).every((c) => c.score <= 1)).toBe(true);
  });

  it('gives tree members the path from the tree root as a trajectory', async () => {
    const candidates = await new MixtureTraverser().doTraverse({
      query: 'Nikon gear for wildlife',
      plan: toyNikonPlan(),
      limit: 10,
      context,
    });
    const d850 = candidates.find((c) => c.id === 'p:d850')!;
    expect(d850.scores.expertSubgraph).toBeGreaterThan(0);
    const tree = d850.trajectories.find((t) => t.hops.length >= 2 && t.hops[0]!.node === 'b:nikon');
    expect(tree?.hops.at(-1)).toMatchObject({ node: 'p:d850', via: 'structure' });
  });

  it('reads the weights from a language model when asked, and falls back to the learned gate', async () => {
    const query = 'Nikon gear for wildlife';
    const plan: Plan = toyNikonPlan();
    const model = new MockLanguageModelV4({
      doGenerate: async () => textResult('{"entity": 0, "relation": 3, "subgraph": 1}'),
    });
    const candidates = await new MixtureTraverser({ llmGate: true }).doTraverse({
      query,
      plan,
      limit: 5,
      context: { ...context, languageModel: model },
    });
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(candidates[0]!.scores).toMatchObject({ gateEntity: 0, gateRelation: 0.75, gateSubgraph: 0.25 });
    const warnings: string[] = [];
    const broken = new MockLanguageModelV4({ doGenerate: async () => textResult('no idea') });
    const fallback = await new MixtureTraverser({ llmGate: true }).doTraverse({
      query,
      plan,
      limit: 5,
      context: { ...context, languageModel: broken, warn: (m) => warnings.push(m) },
    });
    expect(fallback[0]!.scores.gateEntity).toBeCloseTo(untrainedExpertWeights.entity, 9);
    expect(warnings.join('\n')).toMatch(/weigh experts: .*learned gate/);
  });

  it('scores triples densely too when asked and the store has an embedding model', async () => {
    const withVectors = toyContext();
    const calls: number[] = [];
    const model = withVectors.embeddingModel!;
    const counting = {
      ...model,
      doEmbed: (options: Parameters<typeof model.doEmbed>[0]) => {
        calls.push(options.values.length);
        return model.doEmbed(options);
      },
    } as typeof model;
    const outputs = await new MixtureTraverser({ denseTriples: true }).experts(
      'Nikon gear for wildlife',
      toyNikonPlan(),
      {
        ...withVectors,
        embeddingModel: counting,
      },
    );
    expect(calls.length).toBeGreaterThan(0);
    // The query and every lexically matched triple were embedded; the ranking still leads with Nikon's products.
    expect(calls.reduce((a, b) => a + b, 0)).toBeGreaterThan(1);
    expect(['p:d850', 'p:d3500', 'p:nikkor']).toContain(outputs.rankings.relation[0]);
  });

  it('finds text matches when the query names nothing', async () => {
    const query = 'motion triggered trail camera';
    const candidates = await new MixtureTraverser().doTraverse({
      query,
      plan: emptyPlan(query, context.schema),
      limit: 5,
      context,
    });
    expect(candidates[0]!.id).toBe('p:trailcam');
  });
});

describe('the expert gate', () => {
  it('untrained: a question that names a relation weighs the experts by untrainedExpertWeights, one that names nothing leaves it to the entity expert', () => {
    const gate = untrainedGate(10);
    const features = (values: Partial<Record<(typeof gateFeatureNames)[number], number>>) =>
      gateFeatureNames.map((name) => values[name] ?? 0.5);
    const named = features({ plannedPaths: 1, anchorConfidence: 0.9 });
    const surest = features({ plannedPaths: 0, anchorConfidence: 1 });
    const nothing = features({ plannedPaths: 0, anchorConfidence: 0 });
    for (const [k, name] of expertNames.entries()) {
      expect(gateWeights(gate, named)[k]).toBeCloseTo(untrainedExpertWeights[name], 9);
      expect(untrainedWeights(named)[k]).toBeCloseTo(untrainedExpertWeights[name], 9);
      expect(untrainedWeights()[k]).toBeCloseTo(untrainedExpertWeights[name], 9);
    }
    const entity = expertNames.indexOf('entity');
    expect(gateWeights(gate, nothing)[entity]).toBe(1);
    // A confident mention with no relation named: the neighbourhood's experts have a small say.
    const some = gateWeights(gate, surest);
    expect(some[entity]).toBeCloseTo(1 - 2 * unnamedRelationShare, 9);
    expect(some.reduce((s, w) => s + w, 0)).toBeCloseTo(1, 9);
    expect(untrainedExpertWeights.entity).toBeGreaterThan(1 / expertNames.length);
  });

  it('learns which expert answers which kind of query', () => {
    // Queries with a named node (feature 0 high) are answered by the relation expert, the others by
    // the entity expert: the fitted gate must route them so.
    const examples = Array.from({ length: 60 }, (_, i) => {
      const named = i % 2 === 0;
      const features = gateFeatureNames.map((_, j) =>
        j === 0 ? (named ? 0.9 : 0.1) : ((i * 7 + j) % 5) / 5,
      );
      return { features, quality: named ? [0.1, 1, 0.2] : [1, 0.1, 0.1] };
    });
    const model = fitExpertGate(examples, { l2: 0.001 });
    const named = gateWeights(model, examples[0]!.features);
    const plain = gateWeights(model, examples[1]!.features);
    expect(named[1]).toBeGreaterThan(named[0]!);
    expect(plain[0]).toBeGreaterThan(plain[1]!);
    expect(named.reduce((s, w) => s + w, 0)).toBeCloseTo(1, 9);
  });

  it('is trained on labelled queries and reports weights per set, keeping it only when it beats the untrained weights', async () => {
    const planner = {
      specificationVersion: 'v1' as const,
      name: 'fixed',
      doPlan: async () => toyNikonPlan(),
    };
    const queries = [
      { query: 'Nikon gear for wildlife', answers: ['p:d850'], set: 'toy' },
      { query: 'Nikon zoom lens', answers: ['p:nikkor'], set: 'toy' },
      { query: 'Nikon entry level camera', answers: ['p:d3500'], set: 'toy' },
    ];
    const result = await trainMixtureGate(context, new MixtureTraverser(), planner, {
      train: queries,
      val: queries,
    });
    expect(['fitted', 'untrained']).toContain(result.chosen);
    if (result.chosen === 'untrained') expect(result.model).toEqual(untrainedGate(result.model.rankConstant));
    const weights = result.weightsBySet.toy!;
    expect(Object.keys(weights).sort()).toEqual([...expertNames].sort());
    expect(Object.values(weights).reduce((s, w) => s + w, 0)).toBeCloseTo(1, 9);
    expect(result.tried.length).toBeGreaterThan(0);
  });
});
