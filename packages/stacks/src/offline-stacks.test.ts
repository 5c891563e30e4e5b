import { retrieve } from '@weft/core';
import { memoryArtifacts, toyContext, toyTrainingSet } from '@weft/core/test';
import type { RetrievalTrace } from '@weft/spec';
import { describe, expect, it } from 'vitest';
import {
  createStack,
  createStackRegistry,
  focusedOfflineStack,
  morOfflineStack,
  trainStacks,
} from './index.ts';

const store = { context: toyContext() };
const buildStack = (name: string, on: typeof store) => createStack(name, on);

/** Queries the offline stacks must survive: each returns a ranking (possibly empty) and never throws. */
const awkward: Record<string, { readonly query: string; readonly ranked: boolean }> = {
  'no linkable entity': { query: 'something rugged and weather sealed for the outdoors', ranked: true },
  'an entity of the wrong type': { query: 'Which brand is a DSLR camera made by Nikon D850?', ranked: true },
  'more than 30 words': {
    query: Array.from(
      { length: 6 },
      () => 'a light simple entry level camera with an F-mount for wildlife',
    ).join(' and '),
    ranked: true,
  },
  empty: { query: '', ranked: false },
  'only punctuation': { query: '?!  ... ---', ranked: false },
  'another script': { query: '日本のカメラはどれですか', ranked: false },
  'quotes and brackets': { query: `"Nikon" (the brand) 'F-mount' lens: [zoom] *`, ranked: true },
};

const seeds = ['mor-offline', 'focused-offline', 'hybgrag-offline', 'kar-offline', 'mixrag-offline', 'ppr'];

describe.each(seeds)('%s plans through the query graphs', (name) => {
  it("executes a reading the question confirms: its endpoints first, ranked by the question's words", async () => {
    const { ranking, trace } = await retrieve(await buildStack(name, store), {
      query: 'the lens made by Nikon',
      limit: 5,
    });
    expect(ranking[0]?.id).toBe('p:nikkor');
    const executed = trace.plan?.paths.find((p) => p.endpoints);
    expect(executed).toMatchObject({ node: 'b:nikon', hops: [{ edgeType: 'made_by', direction: 'in' }] });
    expect(executed!.endpoints).toEqual(expect.arrayContaining(['p:d850', 'p:d3500', 'p:nikkor']));
  });
});

describe.each(['default', ...seeds])('%s reads what the question excludes', (name) => {
  it('ranks the answers the question excludes ("(not entry-level)") after the others', async () => {
    const retriever = await buildStack(name, store);
    const query = 'DSLR cameras made by Nikon';
    const without = (await retrieve(retriever, { query, limit: 10 })).ranking.map((c) => c.id);
    const { ranking, trace } = await retrieve(retriever, { query: `${query} (not entry-level)`, limit: 10 });
    expect(trace.plan?.exclusion).toBe('entry-level');
    const ids = ranking.map((c) => c.id);
    expect(without).toContain('p:d3500');
    // Excluded answers follow every other candidate.
    expect(ids.indexOf('p:d3500')).toBeGreaterThan(ids.indexOf('p:d850'));
  });
});

describe.each(['default', 'mor-offline', 'focused-offline'])('%s stack on awkward queries', (name) => {
  for (const [label, { query, ranked }] of Object.entries(awkward)) {
    it(`${label}: returns a ranking without throwing`, async () => {
      const retriever = await buildStack(name, store);
      const result = await retrieve(retriever, { query, limit: 10 });
      expect(result.trace.llmCalls).toBe(0);
      if (ranked) expect(result.ranking.length).toBeGreaterThan(0);
      else expect(Array.isArray(result.ranking)).toBe(true);
      // Ranked ids are unique and scores agree with the order.
      expect(new Set(result.ranking.map((c) => c.id)).size).toBe(result.ranking.length);
      for (let i = 1; i < result.ranking.length; i++)
        expect(result.ranking[i - 1]!.score).toBeGreaterThanOrEqual(result.ranking[i]!.score);
    });
  }
});

const toySet = toyTrainingSet(
  [
    ['products by Nikon', ['p:d850', 'p:d3500', 'p:nikkor']],
    ['products by Canon', ['p:eos', 'p:ef']],
    ['products by Leica', ['p:q2']],
    ['what works with the Canon EOS 90D', ['p:ef']],
    ['what works with the Nikon D850', ['p:nikkor']],
    ['what works with the Nikon D3500', ['p:nikkor']],
    ['lenses made by Nikon', ['p:nikkor']],
    ['lenses made by Canon', ['p:ef']],
  ],
  4,
);

const stageWarnings = (trace: RetrievalTrace) =>
  trace.stages.filter((s) => s.kind === 'planner' || s.kind === 'reranker').flatMap((s) => s.warnings ?? []);

describe('offline stacks and their artifacts', () => {
  const sets = [toySet];

  it('read what their training stored, under <owner>.<component> names, without a warning', async () => {
    const artifacts = memoryArtifacts();
    const trained = { context: { ...toyContext(), artifacts } };
    await trainStacks({
      registry: createStackRegistry([morOfflineStack, focusedOfflineStack]),
      store: trained,
      sets,
      artifacts,
    });
    expect([...artifacts.stored.keys()].sort()).toEqual([
      'mor-offline.reranker-trajectory',
      'planner-schema.model',
    ]);
    for (const name of ['mor-offline', 'focused-offline']) {
      const { trace } = await retrieve(await buildStack(name, trained), {
        query: 'products by Nikon',
        limit: 5,
      });
      expect(stageWarnings(trace)).toEqual([]);
    }
  });

  it('say in the trace that an untrained store plans and ranks with defaults', async () => {
    const untrained = { context: { ...toyContext(), artifacts: memoryArtifacts() } };
    const { trace } = await retrieve(await buildStack('mor-offline', untrained), {
      query: 'products by Nikon',
      limit: 5,
    });
    const warnings = stageWarnings(trace);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/"planner-schema.model" not found/);
    expect(warnings[1]).toMatch(/"mor-offline.reranker-trajectory" not found/);
  });
});
