// The contributed stage takes part in training like a built-in one: `trainStacks` fits the step it
// reads first (the default stack's lexical planner), then its own, and the stack reads both back.
import { retrieve } from '@weft/core';
import { memoryArtifacts, toyContext, toyTrainingSet } from '@weft/core/test';
import { createStackRegistry, trainStacks } from '@weft/stacks';
import { describe, expect, it } from 'vitest';
import { typePriorArtifact, typePriorStack } from './contributed-stage.ts';

const sets = [
  toyTrainingSet(
    [
      ['products by Nikon', ['p:d850', 'p:d3500', 'p:nikkor']],
      ['products by Canon', ['p:eos', 'p:ef']],
      ['telephoto lens for birds', ['p:nikkor']],
      ['lenses made by Canon', ['p:ef']],
      ['a light entry level camera', ['p:d3500']],
      ['what works with the Nikon D850', ['p:nikkor']],
    ],
    3,
  ),
];

describe('a stage contributed from outside', () => {
  it('is trained by trainStacks after the step it reads, and read back without a warning', async () => {
    const artifacts = memoryArtifacts();
    const store = { context: { ...toyContext(), artifacts } };
    const registry = createStackRegistry().register(typePriorStack);
    const result = await trainStacks({ registry, store, sets, artifacts, stacks: ['bm25-type-prior'] });
    expect(result.steps.map((s) => [s.step, s.stacks])).toEqual([
      ['default', []],
      ['bm25-type-prior', ['bm25-type-prior']],
    ]);
    expect(result.steps[1]!.summary).toMatch(/^answer rate by type from 4 queries: /);
    const load = await typePriorArtifact.load(artifacts, 'bm25-type-prior.type-prior');
    expect(load.status).toBe('loaded');

    const { ranking, trace } = await retrieve(await registry.create('bm25-type-prior', store), {
      query: 'Nikon telephoto lens',
      limit: 5,
    });
    expect(ranking.length).toBeGreaterThan(0);
    expect(trace.stages.flatMap((s) => s.warnings ?? [])).toEqual([]);
  });

  it('says "retrain" when the store holds another version of its model', async () => {
    const artifacts = memoryArtifacts();
    await artifacts.put('bm25-type-prior.type-prior', { kind: 'example-type-prior', version: 0, value: {} });
    const { trace } = await retrieve(
      await createStackRegistry([typePriorStack]).create('bm25-type-prior', {
        context: { ...toyContext(), artifacts },
      }),
      { query: 'Nikon telephoto lens', limit: 5 },
    );
    expect(trace.stages.flatMap((s) => s.warnings ?? [])).toContainEqual(
      expect.stringMatching(/example-type-prior v0.*re-run weft train/),
    );
  });
});
