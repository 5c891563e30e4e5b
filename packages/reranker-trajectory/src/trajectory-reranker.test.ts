import { runRerankerSuite, toyNikonPlan } from '@weft/conformance';
import { createRetriever, retrieve } from '@weft/core';
import { artifactEnvelope, emptyPlan } from '@weft/kit';
import {
  InMemoryGraphStore,
  InMemoryTextIndex,
  MockTraverser,
  toySkb,
  memoryArtifacts,
} from '@weft/core/test';
import type { ArtifactStore, Candidate, RetrievalContext } from '@weft/spec';
import { describe, expect, it } from 'vitest';
import { trainTrajectoryReranker } from './train-trajectory-reranker.ts';
import { TrajectoryReranker } from './trajectory-reranker.ts';
import { trajectoryRerankerArtifact } from './trajectory-reranker-artifact.ts';

const artifact = 'test.reranker-trajectory';

runRerankerSuite({
  name: 'TrajectoryReranker (fixed weights)',
  create: async () => new TrajectoryReranker({ artifact }),
});

function candidate(id: string, structure: number, bm25: number): Candidate {
  return {
    id,
    score: bm25,
    scores: { structure, bm25Global: bm25, bm25InSet: bm25 },
    trajectories: [{ hops: [{ node: id, via: structure > 0 ? 'structure' : 'text' }] }],
  };
}

describe('trainTrajectoryReranker', () => {
  const skb = toySkb();
  const context: RetrievalContext = {
    schema: skb.schema,
    graph: new InMemoryGraphStore(skb),
    text: new InMemoryTextIndex(skb.nodes),
  };

  it('learns that structure matters more than text when the train answers say so, and stores the model', async () => {
    // Answers are always the structural candidate, never the best text match.
    const examples = Array.from({ length: 30 }, (_, q) => ({
      candidates: [
        candidate(`t${q}`, 0, 1),
        candidate(`s${q}`, 1, 0.3 + (q % 5) / 20),
        candidate(`n${q}`, 0, 0.2),
      ],
      answers: [`s${q}`],
    }));
    const stored = new Map<string, unknown>();
    const withArtifacts = {
      ...context,
      artifacts: {
        get: async <T>(n: string) => stored.get(n) as T,
        put: async (n: string, v: unknown) => void stored.set(n, v),
      },
    };
    const result = await trainTrajectoryReranker(examples.slice(0, 20), examples.slice(20));
    await trajectoryRerankerArtifact.save(withArtifacts.artifacts, artifact, result.model);
    expect(result.val[0]!.hit1).toBe(100);
    const reranker = new TrajectoryReranker({ artifact });
    const query = 'q';
    const ranked = await reranker.doRerank({
      query,
      plan: emptyPlan(query, skb.schema),
      candidates: examples[0]!.candidates,
      limit: 3,
      context: withArtifacts,
    });
    expect(ranked[0]!.id).toBe('s0');
  });
});

describe('trainTrajectoryReranker objectives', () => {
  // The answer is the structural candidate the text agrees with: neither structure alone (a
  // structural candidate with no text match) nor text alone (a stronger text-only match) finds it.
  const structural = (id: string, bm25: number): Candidate => {
    const c = candidate(id, 1, bm25);
    return { ...c, scores: { ...c.scores, structureShare: 1 } };
  };
  const examples = Array.from({ length: 40 }, (_, q) => ({
    candidates: [
      candidate(`t${q}`, 0, 0.9),
      structural(`s${q}`, 0.05),
      structural(`a${q}`, 0.5 + (q % 4) / 20),
      structural(`z${q}`, 0.1),
    ],
    answers: [`a${q}`],
  }));

  for (const objective of ['pairwise', 'pointwise'] as const) {
    it(`${objective}: ranks the structural candidate the text agrees with first, and reports the objective`, async () => {
      const result = await trainTrajectoryReranker(examples.slice(0, 30), examples.slice(30), {
        objectives: [objective],
      });
      expect(result.val.every((v) => v.objective === objective)).toBe(true);
      expect(result.val[0]!.hit1).toBe(100);
    });
  }

  it('tries both objectives by default and keeps the best on val', async () => {
    const result = await trainTrajectoryReranker(examples.slice(0, 30), examples.slice(30));
    expect(new Set(result.val.map((v) => v.objective))).toEqual(new Set(['pairwise', 'pointwise']));
    expect(result.val[0]!.hit1).toBeGreaterThanOrEqual(Math.max(...result.val.map((v) => v.hit1)));
  });
});

describe('trainTrajectoryReranker gate-only examples', () => {
  const structural = (id: string, bm25: number): Candidate => {
    const c = candidate(id, 1, bm25);
    return { ...c, scores: { ...c.scores, structureShare: 1 } };
  };
  const relational = Array.from({ length: 40 }, (_, q) => ({
    candidates: [candidate(`t${q}`, 0, 0.9), structural(`a${q}`, 0.3 + (q % 4) / 20)],
    answers: [`a${q}`],
  }));
  // Text-only queries: the answer is the best text match, no path reached it.
  const textOnly = Array.from({ length: 20 }, (_, q) => ({
    candidates: [structural(`s${q}`, 0.2), candidate(`t${q}`, 0, 0.9)],
    answers: [`t${q}`],
    gateOnly: true,
  }));

  it('never shape the trajectory model, only the gate', async () => {
    const without = await trainTrajectoryReranker(relational.slice(0, 30), relational.slice(30), {
      gate: false,
    });
    const withText = await trainTrajectoryReranker(
      [...relational.slice(0, 30), ...textOnly.slice(0, 15)],
      [...relational.slice(30), ...textOnly.slice(15)],
      { gate: false },
    );
    expect(withText.model.linear).toEqual(without.model.linear);
    expect(withText.val).toEqual(without.val);
  });
});

describe('TrajectoryReranker models in the pipeline', () => {
  const skb = toySkb();
  const base: RetrievalContext = {
    schema: skb.schema,
    graph: new InMemoryGraphStore(skb),
    text: new InMemoryTextIndex(skb.nodes),
  };
  /** A MorTraverser-like list: a structural candidate with weak text, a strong text-only match. */
  const mixed = (q: string | number): Candidate[] =>
    [candidate(`s${q}`, 1, 0.3), candidate(`t${q}`, 0, 1)].map((c) => ({
      ...c,
      scores: { ...c.scores, paths: c.scores.structure ?? 0, anchors: 0, planConfidence: 0.5 },
    }));
  /** Fixed weights trust structure: `s` first. A model fitted where text answers puts `t` first. */
  const fitted = async (artifacts: ArtifactStore) => {
    const examples = Array.from({ length: 30 }, (_, q) => ({ candidates: mixed(q), answers: [`t${q}`] }));
    const { model } = await trainTrajectoryReranker(examples.slice(0, 20), examples.slice(20), {
      gate: false,
    });
    await trajectoryRerankerArtifact.save(artifacts, artifact, model);
  };
  const run = async (reranker: TrajectoryReranker, artifacts: ArtifactStore | undefined) => {
    const retriever = createRetriever({
      name: 'test',
      context: { ...base, ...(artifacts ? { artifacts } : {}) },
      traversers: [new MockTraverser({ doTraverse: () => mixed('') })],
      rerankers: [reranker],
    });
    const { ranking, trace } = await retrieve(retriever, { query: 'q', limit: 5 });
    return {
      first: ranking[0]?.id,
      warnings: trace.stages.find((s) => s.kind === 'reranker')?.warnings ?? [],
    };
  };

  it('warns in the trace when the store is untrained, and ranks with fixed weights', async () => {
    const untrained = await run(new TrajectoryReranker({ artifact }), memoryArtifacts());
    expect(untrained.first).toBe('s');
    expect(untrained.warnings).toHaveLength(1);
    expect(untrained.warnings[0]).toMatch(/"test.reranker-trajectory" not found.*weft train/);
  });

  it("untrained, lets an unsure plan's text order count when asked (untrainedRouteByConfidence)", async () => {
    // The question describes the plan's anchor (Nikon: "Japanese maker of cameras and optics").
    const describing = 'cameras by the Japanese maker of optics';
    const first = async (
      reranker: TrajectoryReranker,
      confidence: number,
      raw?: string,
      query = describing,
      reachedBm25?: number,
    ) =>
      (
        await reranker.doRerank({
          query,
          plan: { ...toyNikonPlan(), query, confidence, ...(raw ? { raw } : {}) },
          // The text order reads `bm25`, as MorTraverser sets it.
          candidates: mixed('').map((c) => ({
            ...c,
            scores: {
              ...c.scores,
              bm25: c.scores.structure && reachedBm25 !== undefined ? reachedBm25 : c.scores.bm25Global!,
            },
          })),
          limit: 5,
          context: { ...base, artifacts: memoryArtifacts() },
        })
      )[0]?.id;
    const routed = new TrajectoryReranker({ artifact, untrainedRouteByConfidence: true });
    // Fixed weights trust structure whatever the plan; routed, a sure plan keeps that order.
    expect(await first(new TrajectoryReranker({ artifact }), 0.1)).toBe('s');
    expect(await first(routed, 0.9)).toBe('s');
    expect(await first(routed, 0.1)).toBe('t');
    // A sure plan whose anchor the rest of the question does not describe is not trusted either.
    expect(await first(routed, 0.9, undefined, 'weatherproof trail gear')).toBe('t');
    // Unless the words describe what its paths reached as well as anything.
    expect(await first(routed, 0.9, undefined, 'weatherproof trail gear', 0.9)).toBe('s');
    // 'offline-plans': an unsure plan no LLM wrote is routed; the same plan from an LLM is not.
    const offlineOnly = new TrajectoryReranker({ artifact, untrainedRouteByConfidence: 'offline-plans' });
    expect(await first(offlineOnly, 0.1)).toBe('t');
    expect(await first(offlineOnly, 0.1, '{"paths": []}')).toBe('s');
  });

  it('puts the node first that a query made of its name alone asks for, trained or not', async () => {
    const artifacts = memoryArtifacts();
    await fitted(artifacts);
    const named: Candidate = { ...candidate('b:nikon', 0, 0.1), scores: { structure: 0, bm25: 0.1 } };
    const order = async (reranker: TrajectoryReranker, query: string) =>
      (
        await reranker.doRerank({
          query,
          plan: { ...toyNikonPlan(), query },
          candidates: [...mixed(''), named],
          limit: 5,
          context: { ...base, artifacts },
        })
      ).map((c) => c.id);
    for (const reranker of [
      new TrajectoryReranker({ artifact }),
      new TrajectoryReranker({ artifact: 'not-trained' }),
    ]) {
      expect((await order(reranker, 'Nikon'))[0]).toBe('b:nikon');
      // A question that says more than the name builds on the node; it does not ask for it.
      expect((await order(reranker, 'Nikon zoom lens for birds'))[0]).not.toBe('b:nikon');
    }
  });

  it('ranks with the trained model, without a warning, under the name the trainer stored', async () => {
    const artifacts = memoryArtifacts();
    await fitted(artifacts);
    expect(artifacts.stored.get(artifact)).toMatchObject({ kind: 'reranker-trajectory', version: 2 });
    const trained = await run(new TrajectoryReranker({ artifact }), artifacts);
    expect(trained).toEqual({ first: 't', warnings: [] });
    // Another name than the trainer's is no silent fallback.
    const elsewhere = await run(new TrajectoryReranker({ artifact: 'other.reranker-trajectory' }), artifacts);
    expect(elsewhere.first).toBe('s');
    expect(elsewhere.warnings[0]).toMatch(/"other.reranker-trajectory" not found/);
  });

  it("ranks an LLM's plan as untrained when the model is for offline plans only (modelFor)", async () => {
    const artifacts = memoryArtifacts();
    await fitted(artifacts);
    const first = async (reranker: TrajectoryReranker, raw?: string) =>
      (
        await reranker.doRerank({
          query: 'q',
          plan: { ...emptyPlan('q', skb.schema), ...(raw ? { raw } : {}) },
          candidates: mixed(''),
          limit: 5,
          context: { ...base, artifacts },
        })
      )[0]?.id;
    const offlineOnly = new TrajectoryReranker({ artifact, modelFor: 'offline-plans' });
    // The trained model puts the text match first, the fixed weights the structural one.
    expect(await first(new TrajectoryReranker({ artifact }), '{"paths": []}')).toBe('t');
    expect(await first(offlineOnly)).toBe('t');
    expect(await first(offlineOnly, '{"paths": []}')).toBe('s');
  });

  it("ranks an LLM's plan by its restriction first, the question second (fixed weights)", async () => {
    // Two structural candidates: `q` matches the whole question better, `r` the plan's restriction.
    const structural = (id: string, inSet: number, restriction: number): Candidate => ({
      id,
      score: 1,
      scores: {
        structure: 1,
        structureShare: 1,
        bm25InSet: inSet,
        bm25Global: inSet,
        bm25Restriction: restriction,
        paths: 1,
        anchors: 1,
        planConfidence: 1,
      },
      trajectories: [{ hops: [{ node: id, via: 'structure' }] }],
    });
    const first = async (raw?: string, restriction = 'wide angle') =>
      (
        await new TrajectoryReranker({ artifact }).doRerank({
          query: 'wide angle lens for the camera maker’s flagship',
          plan: { ...emptyPlan('q', skb.schema), restriction, ...(raw ? { raw } : {}) },
          candidates: [structural('q', 1, 0.2), structural('r', 0.6, 1)],
          limit: 2,
          context: { ...base, artifacts: memoryArtifacts() },
        })
      )[0]?.id;
    expect(await first()).toBe('q');
    expect(await first('{"paths": []}')).toBe('r');
    // A restriction that is the whole question says nothing more.
    expect(await first('{"paths": []}', 'wide angle lens for the camera maker’s flagship')).toBe('q');
  });

  it('warns about a model of another format version, an unversioned one, or other features', async () => {
    const trained = memoryArtifacts();
    await fitted(trained);
    const { value } = trained.stored.get(artifact) as { value: { linear: { features: string[] } } };
    const cases: [unknown, RegExp][] = [
      [artifactEnvelope(trajectoryRerankerArtifact.kind, 1, value), /reranker-trajectory v1/],
      [{ version: 1, ...value }, /predates versioned artifacts/],
      [
        artifactEnvelope(trajectoryRerankerArtifact.kind, trajectoryRerankerArtifact.version, {
          ...value,
          linear: { ...value.linear, features: ['structure'] },
        }),
        /other features/,
      ],
    ];
    for (const [stored, message] of cases) {
      const artifacts = memoryArtifacts();
      await artifacts.put(artifact, stored);
      const stale = await run(new TrajectoryReranker({ artifact }), artifacts);
      expect(stale.first).toBe('s');
      expect(stale.warnings).toHaveLength(1);
      expect(stale.warnings[0]).toMatch(message);
    }
  });

  it("keeps each store's model apart when one reranker serves two stores, reading each once", async () => {
    const trained = memoryArtifacts();
    await fitted(trained);
    const empty = memoryArtifacts();
    const reranker = new TrajectoryReranker({ artifact });
    const [first, second] = await Promise.all([run(reranker, trained), run(reranker, empty)]);
    expect(first).toEqual({ first: 't', warnings: [] });
    expect(second.first).toBe('s');
    expect(second.warnings).toHaveLength(1);
    expect(await run(reranker, trained)).toEqual({ first: 't', warnings: [] });
    expect(await run(reranker, empty)).toMatchObject({ first: 's' });
    expect(trained.reads).toBe(1);
  });

  it('warns when the traversers before it produce none of the scores its features read', async () => {
    const artifacts = memoryArtifacts();
    await fitted(artifacts);
    const reranker = new TrajectoryReranker({ artifact });
    // What a plain text traverser returns: BM25 only.
    const textOnly = createRetriever({
      name: 'test',
      context: { ...base, artifacts },
      traversers: [
        new MockTraverser({
          name: 'text',
          doTraverse: () => [
            { id: 'p:d850', score: 3, scores: { bm25: 3 }, trajectories: [], source: 'text' },
          ],
        }),
      ],
      rerankers: [reranker],
    });
    const { trace } = await retrieve(textOnly, { query: 'q', limit: 5 });
    const warnings = trace.stages.find((s) => s.kind === 'reranker')?.warnings ?? [];
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/"structure"/);
    expect((await run(reranker, artifacts)).warnings).toEqual([]);
  });

  it('refuses to be built without an artifact name or a model', () => {
    expect(() => new TrajectoryReranker(undefined as never)).toThrow(/needs \{ artifact \}/);
    expect(() => new TrajectoryReranker({ name: 'x' } as never)).toThrow(/needs \{ artifact \}/);
  });
});
