import { createRetriever, retrieve } from '@weft/core';
import { artifactEnvelope } from '@weft/kit';
import {
  InMemoryGraphStore,
  InMemoryTextIndex,
  MockTextIndex,
  MockTraverser,
  toySkb,
  memoryArtifacts,
} from '@weft/core/test';
import type { ArtifactStore, Plan, RetrievalContext, SkbQuery } from '@weft/spec';
import { describe, expect, it } from 'vitest';
import { candidateSpans } from './hypotheses.ts';
import { SchemaPlanner } from './schema-planner.ts';
import { schemaPlannerArtifact } from './schema-planner-artifact.ts';
import { trainSchemaPlanner } from './train-schema-planner.ts';

const skb = toySkb();
const artifact = 'test.planner-schema';
const memory = new Map<string, unknown>();
const context: RetrievalContext = {
  schema: skb.schema,
  graph: new InMemoryGraphStore(skb),
  text: new InMemoryTextIndex(skb.nodes),
  artifacts: {
    async get<T>(name: string) {
      return memory.get(name) as T | undefined;
    },
    async put(name: string, value: unknown) {
      memory.set(name, value);
    },
  },
};

describe('SchemaPlanner', () => {
  it('finds spans, quoted phrases first, never starting or ending with a function word', () => {
    const spans = candidateSpans("Which lens of the 'Nikon' brand fits?", 4, 100).map((s) => s.text);
    expect(spans[0]).toBe('Nikon');
    expect(spans).toContain('lens');
    expect(spans).not.toContain('of the');
  });

  it('links the named brand and plans the made_by path into products without a model', async () => {
    const plan = await new SchemaPlanner({ artifact }).doPlan({
      query: 'cameras made by Nikon for wildlife',
      feedback: [],
      context,
    });
    const anchor = plan.anchors.find((a) => a.candidates.some((c) => c.id === 'b:nikon'));
    expect(anchor).toBeDefined();
    const path = plan.paths.find(
      (p) => plan.anchors[p.anchor!] === anchor && p.hops[0]!.edgeType === 'made_by',
    );
    expect(path).toBeDefined();
    expect(path?.hops[0]?.direction).toBe('in');
    expect(plan.restriction.toLowerCase()).toContain('wildlife');
    expect(plan.restriction).not.toContain('Nikon');
    expect(plan.triplets.length).toBeGreaterThan(0);
  });

  it('learns cue words for a relation from train queries and ranks that path first', async () => {
    const train: SkbQuery[] = [
      { id: 'q1', query: 'products by Nikon', answers: ['p:d850', 'p:d3500', 'p:nikkor'], split: 'train' },
      { id: 'q2', query: 'products by Canon', answers: ['p:eos', 'p:ef'], split: 'train' },
      { id: 'q3', query: 'products by Leica', answers: ['p:q2'], split: 'train' },
      { id: 'q4', query: 'what works with the Canon EOS 90D', answers: ['p:ef'], split: 'train' },
      { id: 'q5', query: 'what works with the Nikon D850', answers: ['p:nikkor'], split: 'train' },
    ];
    const model = await trainSchemaPlanner(context, train, [], { minSupport: 1 });
    await schemaPlannerArtifact.save(context.artifacts!, artifact, model);
    expect(model.metapaths).toContain('made_by:in');
    expect(memory.has(artifact)).toBe(true);
    const plan = await new SchemaPlanner({ artifact }).doPlan({
      query: 'products by Canon',
      feedback: [],
      context,
    });
    expect(plan.paths[0]!.hops.map((h) => `${h.edgeType}:${h.direction}`)).toEqual(['made_by:in']);
    expect(plan.anchors[plan.paths[0]!.anchor!]!.candidates[0]!.id).toBe('b:canon');
  });

  it('never throws on hostile queries', async () => {
    const planner = new SchemaPlanner({ artifact });
    for (const query of ['', '   ', '相机 とカメラ', 'zzzz qqqq', 'a '.repeat(40), "''", 'the of and']) {
      const plan = await planner.doPlan({ query, feedback: [], context });
      expect(plan.query).toBe(query);
      expect(Array.isArray(plan.paths)).toBe(true);
    }
  });
});

const trainQueries: SkbQuery[] = [
  { id: 'q1', query: 'products by Nikon', answers: ['p:d850', 'p:d3500', 'p:nikkor'], split: 'train' },
  { id: 'q2', query: 'products by Canon', answers: ['p:eos', 'p:ef'], split: 'train' },
  { id: 'q3', query: 'products by Leica', answers: ['p:q2'], split: 'train' },
  { id: 'q4', query: 'what works with the Canon EOS 90D', answers: ['p:ef'], split: 'train' },
  { id: 'q5', query: 'what works with the Nikon D850', answers: ['p:nikkor'], split: 'train' },
];

describe('SchemaPlanner models', () => {
  const base: RetrievalContext = { schema: skb.schema, graph: context.graph, text: context.text };
  const query = 'what works with the Canon EOS 90D';
  const planWith = async (planner: SchemaPlanner, artifacts: ArtifactStore | undefined) => {
    const warnings: string[] = [];
    const plan = await planner.doPlan({
      query,
      feedback: [],
      context: { ...base, ...(artifacts ? { artifacts } : {}), warn: (m) => warnings.push(m) },
    });
    return { plan, warnings };
  };
  const pathsOf = (plan: Plan) => plan.paths.map((p) => [p.hops.map((h) => h.edgeType).join('/'), p.score]);

  it('warns when the store is untrained, and plans with hand-set weights', async () => {
    const untrained = await planWith(new SchemaPlanner({ artifact }), memoryArtifacts());
    expect(untrained.warnings).toHaveLength(1);
    expect(untrained.warnings[0]).toMatch(/"test.planner-schema" not found.*weft train/);
    const noStore = await planWith(new SchemaPlanner({ artifact }), undefined);
    expect(noStore.warnings[0]).toMatch(/no artifact store/);
    expect(pathsOf(untrained.plan)).toEqual(pathsOf(noStore.plan));
  });

  it('plans with the trained model without a warning, under the name it was stored by', async () => {
    const artifacts = memoryArtifacts();
    const model = await trainSchemaPlanner(base, trainQueries, [], { minSupport: 1 });
    await schemaPlannerArtifact.save(artifacts, artifact, model);
    expect(artifacts.stored.get(artifact)).toMatchObject({
      kind: 'planner-schema',
      version: 3,
      value: model,
    });
    const trained = await planWith(new SchemaPlanner({ artifact }), artifacts);
    expect(trained.warnings).toEqual([]);
    const given = await planWith(new SchemaPlanner({ model }), undefined);
    expect(given.warnings).toEqual([]);
    expect(pathsOf(trained.plan)).toEqual(pathsOf(given.plan));
    const untrained = await planWith(new SchemaPlanner({ artifact }), undefined);
    expect(pathsOf(trained.plan)).not.toEqual(pathsOf(untrained.plan));
    // Asked for, the hand-set weights apply beside a trained model, without a warning.
    const handSet = await planWith(new SchemaPlanner({ untrained: true }), artifacts);
    expect(handSet.warnings).toEqual([]);
    expect(pathsOf(handSet.plan)).toEqual(pathsOf(untrained.plan));
  });

  it('warns about a model of another format version, an unversioned one, or other features', async () => {
    const model = await trainSchemaPlanner(base, trainQueries, [], { minSupport: 1 });
    const cases: [unknown, RegExp][] = [
      [
        artifactEnvelope(schemaPlannerArtifact.kind, schemaPlannerArtifact.version - 1, model),
        /planner-schema v2/,
      ],
      [{ version: 1, ...model }, /predates versioned artifacts/],
      [
        artifactEnvelope(schemaPlannerArtifact.kind, schemaPlannerArtifact.version, {
          ...model,
          hypothesis: { ...model.hypothesis, features: ['other'] },
        }),
        /other hypothesis features/,
      ],
    ];
    const untrained = await planWith(new SchemaPlanner({ artifact }), undefined);
    for (const [stored, message] of cases) {
      const artifacts = memoryArtifacts();
      await artifacts.put(artifact, stored);
      const stale = await planWith(new SchemaPlanner({ artifact }), artifacts);
      expect(stale.warnings).toHaveLength(1);
      expect(stale.warnings[0]).toMatch(message);
      expect(pathsOf(stale.plan)).toEqual(pathsOf(untrained.plan));
    }
  });

  it("keeps each store's model apart when one planner serves two stores, reading each once", async () => {
    const trained = memoryArtifacts();
    await schemaPlannerArtifact.save(
      trained,
      artifact,
      await trainSchemaPlanner(base, trainQueries, [], { minSupport: 1 }),
    );
    const empty = memoryArtifacts();
    const planner = new SchemaPlanner({ artifact });
    const first = await planWith(planner, trained);
    const second = await planWith(planner, empty);
    const again = await planWith(planner, trained);
    expect(first.warnings).toEqual([]);
    expect(second.warnings).toHaveLength(1);
    expect(again.warnings).toEqual([]);
    expect(pathsOf(second.plan)).toEqual(
      pathsOf((await planWith(new SchemaPlanner({ artifact }), undefined)).plan),
    );
    expect(pathsOf(again.plan)).toEqual(pathsOf(first.plan));
    expect(trained.reads).toBe(1);
  });

  it('records the warning in the trace of the planner stage', async () => {
    const retriever = createRetriever({
      name: 'test',
      context: { ...base, artifacts: memoryArtifacts() },
      planner: new SchemaPlanner({ artifact }),
      traversers: [new MockTraverser({ doTraverse: [[]] })],
    });
    const { trace } = await retrieve(retriever, { query, limit: 5 });
    expect(trace.stages.find((s) => s.kind === 'planner')?.warnings?.[0]).toMatch(
      /"test.planner-schema" not found/,
    );
  });

  it('refuses to be built without an artifact name or a model', () => {
    expect(() => new SchemaPlanner(undefined as never)).toThrow(/needs \{ artifact \}/);
    expect(() => new SchemaPlanner({} as never)).toThrow(/needs \{ artifact \}/);
  });

  it('reads a model stored under a former name (a store trained before the rename)', async () => {
    const artifacts = memoryArtifacts();
    const model = await trainSchemaPlanner(base, trainQueries, [], { minSupport: 1 });
    await schemaPlannerArtifact.save(artifacts, 'offline.planner-schema', model);
    const renamed = schemaPlannerArtifact.ref('planner-schema', ['offline.planner-schema']);
    const trained = await planWith(new SchemaPlanner({ artifact: renamed }), artifacts);
    expect(trained.warnings).toEqual([]);
    expect(pathsOf(trained.plan)).toEqual(
      pathsOf((await planWith(new SchemaPlanner({ model }), undefined)).plan),
    );
  });
});

describe('SchemaPlanner batch limits', () => {
  it('splits its text searches into batches the index accepts (maxQueriesPerCall)', async () => {
    const inner = new InMemoryTextIndex(skb.nodes);
    const text = new MockTextIndex({ doSearch: (options) => inner.doSearch(options), maxQueriesPerCall: 1 });
    // A parenthesised aside makes the linking search ask two queries.
    const query = "lenses for the 'Nikon D850' (full-frame DSLR)";
    const narrow = { schema: skb.schema, graph: context.graph, text };
    const got = await new SchemaPlanner({ artifact }).doPlan({ query, feedback: [], context: narrow });
    expect(text.doSearchCalls.some((call) => call.filter?.ids !== undefined)).toBe(true);
    for (const call of text.doSearchCalls) expect(call.queries).toHaveLength(1);
    const wide = await new SchemaPlanner({ artifact }).doPlan({
      query,
      feedback: [],
      context: { schema: skb.schema, graph: context.graph, text: inner },
    });
    expect(got).toEqual(wide);
  });
});
