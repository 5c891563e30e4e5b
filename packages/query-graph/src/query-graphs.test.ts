import {
  InMemoryGraphStore,
  InMemoryTextIndex,
  type InMemorySkb,
  MockLanguageModelV4,
} from '@weft/core/test';
import type { Anchor, Candidate, Plan, PlannerV1, RetrievalContext, SkbNode } from '@weft/spec';
import { describe, expect, it } from 'vitest';
import { checkModelPlan } from './check-model-plan.ts';
import { endpointCandidates, QueryGraphReranker } from './query-graph-execution.ts';
import { QueryGraphPlanner } from './query-graph-planner.ts';
import { searchQueryGraphs } from './query-graphs.ts';

const node = (id: string, name: string, text: string): SkbNode => ({ id, type: 'synset', name, text });

/** Two senses of "eye": the organ has parts, the faculty has none. */
const skb: InMemorySkb = {
  schema: {
    name: 'eyes',
    version: 1,
    nodeTypes: [{ name: 'synset', description: 'a sense' }],
    edgeTypes: [
      { name: 'part_meronym', from: 'synset', to: 'synset', description: 'has as a part' },
      { name: 'hypernym', from: 'synset', to: 'synset', description: 'is a kind of' },
    ],
  },
  nodes: [
    node('organ', 'eye', 'the organ of sight'),
    node('faculty', 'eye', 'good discernment, as in an eye for beauty'),
    node('iris', 'iris', 'muscular diaphragm that controls the size of the pupil of the eye'),
    node('cornea', 'cornea', 'transparent covering at the front of the eye'),
    node('lens', 'lens', 'biconvex transparent body behind the iris that focuses light'),
    node('discernment', 'discernment', 'the power to see what is not obvious'),
    node('sense', 'sense organ', 'an organ having nerve endings that respond to stimuli'),
    node('sky', 'sky', 'the atmosphere as seen from the earth, blue on a clear day'),
  ],
  edges: [
    { src: 'organ', type: 'part_meronym', dst: 'iris' },
    { src: 'organ', type: 'part_meronym', dst: 'cornea' },
    { src: 'organ', type: 'part_meronym', dst: 'lens' },
    { src: 'organ', type: 'hypernym', dst: 'sense' },
    { src: 'faculty', type: 'hypernym', dst: 'discernment' },
  ],
};

function context(): RetrievalContext {
  return { schema: skb.schema, graph: new InMemoryGraphStore(skb), text: new InMemoryTextIndex(skb.nodes) };
}

/** "eye" as a linker reads it: the faculty first (its gloss names the word), the organ second. */
const eye: Anchor = {
  mention: 'eye',
  confidence: 0.5,
  candidates: [
    { id: 'faculty', score: 1, type: 'synset' },
    { id: 'organ', score: 0.95, type: 'synset' },
  ],
};

describe('searchQueryGraphs', () => {
  it('hangs the relation on the sense that has it: the organ, whose parts match the question', async () => {
    const reading = await searchQueryGraphs('the part of the eye that controls the pupil', [eye], context());
    const first = reading.graphs[0]!;
    expect(first).toMatchObject({ node: 'organ', edgeType: 'part_meronym', direction: 'out', reach: 3 });
    expect(first.endpoints[0]!.id).toBe('iris');
    // The faculty has no part: no reading of it along part_meronym.
    expect(reading.graphs.some((g) => g.node === 'faculty' && g.edgeType === 'part_meronym')).toBe(false);
    expect(first.evidence.relationWords).toBeGreaterThan(0);
    expect(first.confidence).toBeGreaterThan(reading.textOnly);
  });

  it('reads a question no reading fits as text: confidences and the text-only share sum to one', async () => {
    const reading = await searchQueryGraphs('blue on a clear day', [eye], context());
    // No endpoint of any sense matches the words: the text-only reading outweighs every reading.
    expect(reading.graphs.every((g) => g.evidence.fit === 0)).toBe(true);
    expect(reading.textOnly).toBeGreaterThan(0.5);
    const some = await searchQueryGraphs('the part of the eye that controls the pupil', [eye], context());
    const total = some.textOnly + some.graphs.reduce((sum, g) => sum + g.confidence, 0);
    expect(total).toBeCloseTo(1);
  });

  it('takes relation words for the relation, not for an anchor, and leaves them out of the constraint', async () => {
    const part: Anchor = {
      mention: 'part',
      confidence: 0.9,
      candidates: [{ id: 'lens', score: 1, type: 'synset' }],
    };
    const reading = await searchQueryGraphs('a part of the eye', [part, eye], context());
    expect(reading.graphs[0]).toMatchObject({ node: 'organ', edgeType: 'part_meronym', constraint: '' });
    // "part" names the relation (part_meronym): as an anchor it weighs a fifth of its link.
    const lens = reading.graphs.find((g) => g.node === 'lens');
    if (lens) expect(lens.evidence.link).toBeCloseTo(0.2 * Math.sqrt(0.9));
  });

  it('reads nothing without a confident anchor or without text', async () => {
    const unsure = { ...eye, confidence: 0.05 };
    expect((await searchQueryGraphs('the part of the eye', [unsure], context())).graphs).toEqual([]);
    expect((await searchQueryGraphs('  ', [eye], context())).graphs).toEqual([]);
  });
});

/** A planner that links fixed anchors and plans one path of its own (the base a decorator reads). */
function fixedPlanner(name: string, anchors: Anchor[]): PlannerV1 {
  return {
    specificationVersion: 'v1',
    name,
    async doPlan({ query }) {
      return {
        query,
        targetTypes: [],
        anchors,
        paths: [{ anchor: 0, hops: [{ edgeType: 'hypernym', direction: 'out' }], score: 1 }],
        variables: [],
        triplets: [],
        restriction: query,
        confidence: 0.5,
      };
    },
  };
}

const sky: Anchor = {
  mention: 'sky',
  confidence: 0.9,
  candidates: [{ id: 'sky', score: 1, type: 'synset' }],
};

describe('QueryGraphPlanner', () => {
  it("adds the readings to the base's plan, executing those whose relation the question names", async () => {
    const planner = new QueryGraphPlanner({ base: fixedPlanner('base', [eye]) });
    const plan = await planner.doPlan({ query: 'a part of the eye', feedback: [], context: context() });
    expect(planner.name).toBe('base');
    // The base's own path is kept, first.
    expect(plan.paths[0]).toEqual({
      anchor: 0,
      hops: [{ edgeType: 'hypernym', direction: 'out' }],
      score: 1,
    });
    const reading = plan.paths.find((p) => p.node === 'organ' && p.hops[0]?.edgeType === 'part_meronym');
    expect(reading?.endpoints).toEqual(expect.arrayContaining(['iris', 'cornea', 'lens']));
    expect(reading?.confidence).toBeGreaterThan(0);
    // The question does not name hypernymy: that reading is planned, not executed.
    const kind = plan.paths.find((p) => p.node === 'organ' && p.hops[0]?.edgeType === 'hypernym');
    expect(kind).toBeDefined();
    expect(kind!.endpoints).toBeUndefined();
  });

  it("adds the linker's anchors that the base lacks, and reads from them", async () => {
    const planner = new QueryGraphPlanner({
      base: fixedPlanner('base', [sky]),
      linker: fixedPlanner('linker', [{ ...sky, mention: 'Sky' }, eye]),
    });
    const plan = await planner.doPlan({ query: 'a part of the eye', feedback: [], context: context() });
    expect(plan.anchors.map((a) => a.mention)).toEqual(['sky', 'eye']);
    const reading = plan.paths.find((p) => p.endpoints);
    expect(reading).toMatchObject({ anchor: 1, node: 'organ' });
  });
});

const candidate = (id: string, score: number): Candidate => ({
  id,
  score,
  scores: { bm25: score },
  trajectories: [],
});

function planWith(paths: Plan['paths']): Plan {
  return {
    query: 'q',
    targetTypes: [],
    anchors: [],
    paths,
    variables: [],
    triplets: [],
    restriction: 'q',
    confidence: 1,
  };
}

describe('executing a plan', () => {
  const hop = [{ edgeType: 'part_meronym', direction: 'out' as const }];
  it("ranks the intersection of two anchors' readings first, then by probability, then by the readings' order", () => {
    const plan = planWith([
      { anchor: 0, node: 'a', hops: hop, score: 1, confidence: 0.5, endpoints: ['x', 'y', 'z'] },
      { anchor: 1, node: 'b', hops: hop, score: 0.5, confidence: 0.2, endpoints: ['z'] },
      { anchor: 0, node: 'a', hops: hop, score: 0.4, confidence: 0.3, endpoints: ['w'] },
      // Planned, not executed: no endpoints.
      { anchor: 0, node: 'c', hops: hop, score: 0.9, confidence: 0.4 },
    ]);
    const ranked = endpointCandidates(plan);
    expect(ranked.map((c) => c.id)).toEqual(['z', 'x', 'y', 'w']);
    expect(ranked[0]!.score).toBeCloseTo(0.7);
    expect(ranked[0]!.trajectories[0]!.hops[1]).toMatchObject({ node: 'z', edgeType: 'part_meronym' });
  });

  it('puts the executed endpoints first and keeps the order of the rest; no executed reading changes nothing', async () => {
    const candidates = [candidate('a', 9), candidate('x', 5), candidate('b', 4), candidate('y', 3)];
    const reranker = new QueryGraphReranker();
    const executed = planWith([
      { anchor: 0, hops: hop, score: 1, confidence: 0.6, endpoints: ['y', 'x', 'q'] },
    ]);
    const out = await reranker.doRerank({
      query: 'q',
      plan: executed,
      candidates,
      limit: 10,
      context: context(),
    });
    expect(out.map((c) => c.id)).toEqual(['y', 'x', 'a', 'b']);
    expect(out.every((c, i) => i === 0 || c.score <= out[i - 1]!.score)).toBe(true);
    const none = planWith([{ anchor: 0, hops: hop, score: 1, confidence: 0.6 }]);
    const same = await reranker.doRerank({
      query: 'q',
      plan: none,
      candidates,
      limit: 3,
      context: context(),
    });
    expect(same.map((c) => c.id)).toEqual(['a', 'x', 'b']);
  });
});

/**
 * A planner as an LLM planner behaves: with a model in the context its plan is the model's (`raw`),
 * hung on `modelAnchor`; without one, the offline plan (on the organ).
 */
function modelPlanner(modelAnchor: Anchor, edgeType: string): PlannerV1 {
  return {
    specificationVersion: 'v1',
    name: 'model',
    async doPlan({ query, context }) {
      const model = context.languageModel !== undefined;
      return {
        query,
        targetTypes: [],
        anchors: [model ? modelAnchor : { ...eye, candidates: [eye.candidates[1]!] }],
        paths: [
          { anchor: 0, hops: [{ edgeType: model ? edgeType : 'part_meronym', direction: 'out' }], score: 1 },
        ],
        variables: [],
        triplets: [],
        restriction: query,
        confidence: 0.9,
        ...(model ? { raw: 'the model wrote it' } : {}),
      };
    },
  };
}

describe("checking a model's plan against the graph", () => {
  const faculty: Anchor = {
    mention: 'eye',
    confidence: 1,
    candidates: [{ id: 'faculty', score: 1, type: 'synset' }],
  };
  const organ: Anchor = {
    mention: 'eye',
    confidence: 1,
    candidates: [{ id: 'organ', score: 1, type: 'synset' }],
  };
  const planOf = async (anchor: Anchor, edgeType: string) =>
    modelPlanner(anchor, edgeType).doPlan({
      query: 'a part of the eye',
      feedback: [],
      context: { ...context(), languageModel: new MockLanguageModelV4() },
    });

  it('trusts a plan whose relation leaves its anchor, and not one whose anchor has no such edge', async () => {
    expect(await checkModelPlan(await planOf(organ, 'part_meronym'), context())).toEqual({
      trusted: true,
      problems: [],
    });
    const wrong = await checkModelPlan(await planOf(faculty, 'part_meronym'), context());
    expect(wrong.trusted).toBe(false);
    expect(wrong.problems[0]).toContain('no planned relation leaves its anchor (eye —part_meronym→)');
  });

  it('reads a triplet at its anchor end, in the edge’s direction', async () => {
    const plan = await planOf(organ, 'part_meronym');
    const triplet = (subject: boolean) => ({
      ...plan,
      paths: [],
      triplets: [
        {
          subject: subject
            ? { kind: 'anchor' as const, anchor: 0 }
            : { kind: 'variable' as const, name: 'x' },
          edgeType: 'part_meronym',
          object: subject ? { kind: 'variable' as const, name: 'x' } : { kind: 'anchor' as const, anchor: 0 },
        },
      ],
    });
    expect((await checkModelPlan(triplet(true), context())).trusted).toBe(true);
    // Nothing has the organ as a part; the relation arrives at the anchor, and is named so.
    const incoming = await checkModelPlan(triplet(false), context());
    expect(incoming.trusted).toBe(false);
    expect(incoming.problems[0]).toContain('(eye ←part_meronym—)');
  });

  it('replaces a plan it does not trust with the offline plan, read as one; keeps one it trusts', async () => {
    const warnings: string[] = [];
    const withModel = {
      ...context(),
      languageModel: new MockLanguageModelV4(),
      warn: (m: string) => warnings.push(m),
    };
    const plan = async (anchor: Anchor) =>
      new QueryGraphPlanner({ base: modelPlanner(anchor, 'part_meronym'), keepModelPlans: true }).doPlan({
        query: 'a part of the eye',
        feedback: [],
        context: withModel,
      });
    const kept = await plan(organ);
    expect(kept.raw).toBe('the model wrote it');
    expect(warnings).toEqual([]);
    const replaced = await plan(faculty);
    expect(replaced.raw).toBeUndefined();
    expect(replaced.anchors[0]!.candidates[0]!.id).toBe('organ');
    expect(replaced.paths.some((p) => p.endpoints?.includes('iris'))).toBe(true);
    expect(warnings).toEqual([expect.stringContaining("the model's plan was not trusted")]);
  });
});

/** Two senses of "knee": the joint (part of the leg, with parts of its own) and the part of a trouser leg. */
const knees: InMemorySkb = {
  schema: {
    name: 'knees',
    version: 1,
    nodeTypes: [{ name: 'synset', description: 'a sense' }],
    edgeTypes: [
      {
        name: 'part_meronym',
        from: 'synset',
        to: 'synset',
        description: 'dst is a part of src (src is the whole)',
      },
      { name: 'hypernym', from: 'synset', to: 'synset', description: 'src is a kind of dst' },
    ],
  },
  nodes: [
    node('joint', 'knee', 'hinge joint in the human leg'),
    node('cloth', 'knee', 'the part of a trouser leg that covers the knee'),
    node('leg', 'leg', 'a human limb'),
    node('trouser-leg', 'trouser leg', 'one of the two parts of trousers'),
    node('patella', 'patella', 'a small flat bone in front of the knee'),
    node('meniscus', 'meniscus', 'a disk of cartilage in the knee'),
    node('hinge', 'hinge joint', 'a joint that moves in one plane'),
    node('covering', 'covering', 'an artifact that covers something'),
  ],
  edges: [
    { src: 'leg', type: 'part_meronym', dst: 'joint' },
    { src: 'joint', type: 'part_meronym', dst: 'patella' },
    { src: 'joint', type: 'part_meronym', dst: 'meniscus' },
    { src: 'joint', type: 'hypernym', dst: 'hinge' },
    { src: 'trouser-leg', type: 'part_meronym', dst: 'cloth' },
    { src: 'cloth', type: 'hypernym', dst: 'covering' },
  ],
};

/** "knee" as a linker might read it: the trouser leg's knee first (its gloss says "part"). */
const knee: Anchor = {
  mention: 'knee',
  confidence: 0.5,
  candidates: [
    { id: 'cloth', score: 1, type: 'synset' },
    { id: 'joint', score: 0.85, type: 'synset' },
  ],
};

describe('searchQueryGraphs: word order and the common sense', () => {
  const kneeContext = (): RetrievalContext => ({
    schema: knees.schema,
    graph: new InMemoryGraphStore(knees),
    text: new InMemoryTextIndex(knees.nodes),
  });

  it('follows the relation the way the question reads it, from the sense the KB says most about', async () => {
    const whole = await searchQueryGraphs('what is a knee part of?', [knee], kneeContext());
    expect(whole.graphs[0]).toMatchObject({ node: 'joint', edgeType: 'part_meronym', direction: 'in' });
    expect(whole.graphs[0]!.endpoints.map((e) => e.id)).toEqual(['leg']);
    const parts = await searchQueryGraphs('the parts of a knee', [knee], kneeContext());
    expect(parts.graphs[0]).toMatchObject({ node: 'joint', edgeType: 'part_meronym', direction: 'out' });
    // Read the other way, the relation words do not count for the reading.
    const against = parts.graphs.find((g) => g.edgeType === 'part_meronym' && g.direction === 'in');
    expect(against?.evidence.relationWords ?? 0).toBe(0);
  });
});
