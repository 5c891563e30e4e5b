import { retrieve } from '@weft/core';
import { reciprocalRankFusion } from '@weft/kit';
import { InMemoryTextIndex, toySkb } from '@weft/core/test';
import type { RetrieverV1 } from '@weft/spec';
import { describe, expect, it } from 'vitest';
import { toyContext } from '@weft/core/test';
import { createStack, createStackRegistry, morOfflineStack, StackRegistry, stackTrains } from './index.ts';
import { TextSearchTraverser } from '@weft/traverser-text';
import { type StackEntry, stageTimeout } from './stack-registry.ts';

const store = { context: toyContext() };
const buildStack = (name: string, on = store) => createStack(name, on);

describe('stack registry', () => {
  it('lists the baselines first, defaults to "default", and names the stacks it knows when asked for another', () => {
    const registry = createStackRegistry();
    expect(
      registry
        .list()
        .map((e) => e.name)
        .slice(0, 4),
    ).toEqual(['bm25', 'bm25-rel', 'vector', 'hybrid-rrf']);
    expect(registry.defaultName).toBe('default');
    expect(() => registry.get('nope')).toThrow(
      /unknown stack "nope" \(stacks: bm25, bm25-rel, vector, hybrid-rrf/,
    );
    // Without a "default" stack the first registered one stands in; an empty registry says so.
    expect(new StackRegistry(registry.list().slice(0, 2)).defaultName).toBe('bm25');
    expect(() => new StackRegistry().defaultName).toThrow(/empty/);
  });

  it('bm25 ranks target-type nodes exactly as the reference BM25 index does', async () => {
    const skb = toySkb();
    const reference = new InMemoryTextIndex(skb.nodes);
    const bm25 = await buildStack('bm25', store);
    for (const query of ['Nikon telephoto lens', 'wildlife camera', 'café']) {
      const result = await retrieve(bm25, { query, limit: 10 });
      const [expected] = await reference.doSearch({
        queries: [query],
        limit: 10,
        filter: { nodeTypes: ['product'] },
      });
      expect(result.ranking.map((c) => c.id)).toEqual(expected!.map((h) => h.id));
      expect(result.trace.stack).toBe('bm25');
    }
  });

  it('hybrid-rrf is the reciprocal rank fusion of bm25 and vector', async () => {
    const query = 'telephoto zoom lens for wildlife';
    const [bm25, vector, hybrid] = await Promise.all(
      ['bm25', 'vector', 'hybrid-rrf'].map((name) => buildStack(name, store)),
    );
    const lists = await Promise.all(
      [bm25!, vector!].map(async (r) => (await retrieve(r, { query, limit: 100 })).ranking),
    );
    const fused = reciprocalRankFusion({ k: 60 }).fuse(lists, { limit: 10 });
    const result = await retrieve(hybrid!, { query, limit: 10 });
    expect(result.ranking.map((c) => c.id)).toEqual(fused.map((c) => c.id));
    expect(result.trace.stages.map((s) => `${s.kind}:${s.name}`)).toEqual([
      'traverser:bm25',
      'traverser:vector',
      'fusion:rrf',
    ]);
    const top = result.ranking[0]!;
    expect(new Set(top.trajectories.map((t) => t.hops[0]!.via))).toEqual(new Set(['text', 'vector']));
  });

  it('refuses vector stacks on a store without vectors, with a clear message', async () => {
    const bare = { context: toyContext({ vectors: false }) };
    await expect(buildStack('vector', bare)).rejects.toMatchObject({
      code: 'WEFT_BAD_INPUT',
      message: expect.stringMatching(/needs a vector index/),
    });
    await expect(buildStack('hybrid-rrf', bare)).rejects.toMatchObject({ code: 'WEFT_BAD_INPUT' });
    expect((await buildStack('bm25', bare)).name).toBe('bm25');
  });

  it('accepts entries that return a finished retriever, and rejects duplicate or bad names; registries are independent', async () => {
    const fixed: RetrieverV1 = {
      specificationVersion: 'v1',
      name: 'fixed',
      doRetrieve: async ({ query }) => ({
        ranking: [
          { id: 'p:q2', score: 1, scores: {}, trajectories: [{ hops: [{ node: 'p:q2', via: 'text' }] }] },
        ],
        trace: {
          stack: 'fixed',
          query,
          stages: [],
          rounds: 1,
          feedback: [],
          llmCalls: 0,
          inputTokens: 0,
          outputTokens: 0,
          durationMs: 0,
        },
      }),
    };
    const registry = createStackRegistry().register({
      name: 'fixed-test',
      description: 'returns p:q2',
      create: () => fixed,
    });
    expect(await registry.create('fixed-test', store)).toBe(fixed);
    expect(createStackRegistry().has('fixed-test')).toBe(false);
    expect(() => registry.register({ name: 'bm25', description: 'again', create: () => fixed })).toThrow(
      /registered twice/,
    );
    expect(() => registry.register({ name: 'Bad Name', description: 'x', create: () => fixed })).toThrow(
      /invalid stack name/,
    );
  });
});

describe('deferred stacks', () => {
  const fixedStack = (name: string, training?: StackEntry['training']): StackEntry => ({
    name,
    description: `the ${name} stack`,
    create: (on) => ({ name, context: on.context, traversers: [new TextSearchTraverser({ name: 'bm25' })] }),
    ...(training ? { training } : {}),
  });

  it('imports a stack when it is first built, once, and checks it against its listing', async () => {
    let loads = 0;
    const registry = new StackRegistry([
      {
        name: 'later',
        description: 'listed now, loaded later',
        trains: false,
        load: async () => {
          loads++;
          return fixedStack('later');
        },
      },
      { name: 'misnamed', description: 'x', trains: false, load: async () => fixedStack('other') },
      { name: 'untrained', description: 'x', trains: true, load: async () => fixedStack('untrained') },
    ]);
    expect(registry.list().map((e) => [e.name, stackTrains(e)])).toEqual([
      ['later', false],
      ['misnamed', false],
      ['untrained', true],
    ]);
    expect(loads).toBe(0);
    expect((await registry.create('later', store)).name).toBe('later');
    await registry.create('later', store);
    expect((await registry.entry('later')).description).toBe('the later stack');
    expect(loads).toBe(1);
    await expect(registry.entry('misnamed')).rejects.toThrow(/loaded as "other"/);
    await expect(registry.create('untrained', store)).rejects.toThrow(
      /without training steps; its listing says with/,
    );
  });

  it('lists every built-in stack as its module defines it', async () => {
    const registry = createStackRegistry();
    const entries = await registry.entries();
    expect(entries.map((e) => [e.name, e.description, Boolean(e.training?.length)])).toEqual(
      registry.list().map((e) => [e.name, e.description, stackTrains(e)]),
    );
    expect(entries).toContain(morOfflineStack);
  });
});

describe('stageTimeout', () => {
  it('hands a caller’s model timeout to the LLM stages, and nothing when none was set', () => {
    expect(stageTimeout({ modelTimeoutMs: 90_000 })).toEqual({ timeoutMs: 90_000 });
    expect(stageTimeout({})).toEqual({});
  });
});
