import { toyContext, memoryArtifacts, toyTrainingSet } from '@weft/core/test';
import { defineArtifact } from '@weft/kit';
import { schemaPlannerArtifact } from '@weft/planner-schema';
import type { TrainingStepV1 } from '@weft/spec';
import { describe, expect, it } from 'vitest';
import {
  createStackRegistry,
  schemaPlannerRef,
  schemaPlannerTraining,
  StackRegistry,
  type StackEntry,
  trainStacks,
} from './index.ts';

const sets = [
  toyTrainingSet(
    [
      ['products by Nikon', ['p:d850']],
      ['products by Canon', ['p:eos']],
    ],
    2,
  ),
];
const number = defineArtifact<number>({ kind: 'number', version: 1 });

/** A step that writes `value` under `name`, after reading what `reads` names; `log` records the order. */
function step(id: string, reads: readonly string[], log: string[]): TrainingStepV1 {
  return {
    specificationVersion: 'v1',
    id,
    learnsFrom: ['labelled'],
    reads: reads.map((name) => number.ref(`${name}.n`)),
    writes: [number.ref(`${id}.n`)],
    async doTrain({ context }) {
      let sum = 1;
      for (const name of reads) {
        const load = await number.load(context.artifacts, `${name}.n`);
        if (load.status !== 'loaded') throw new Error(`${id} read ${name} before it was trained`);
        sum += load.value;
      }
      await number.save(context.artifacts, `${id}.n`, sum);
      log.push(id);
      return { summary: `${id} = ${sum}` };
    },
  };
}

const stack = (name: string, training: readonly TrainingStepV1[]): StackEntry => ({
  name,
  description: name,
  create: (store) => ({ name, context: store.context, traversers: [] }),
  training,
});

describe('trainStacks', () => {
  it('fits each shared step once, after the steps whose artifacts it reads', async () => {
    const log: string[] = [];
    const shared = step('shared', [], log);
    const a = step('a', ['shared'], log);
    const b = step('b', ['a', 'shared'], log);
    const registry = new StackRegistry([stack('x', [b]), stack('y', [shared, a]), stack('z', [shared])]);
    const artifacts = memoryArtifacts();
    const result = await trainStacks({ registry, store: { context: toyContext() }, sets, artifacts });
    expect(log).toEqual(['shared', 'a', 'b']);
    expect(result.steps.map((s) => [s.step, s.stacks, s.summary])).toEqual([
      ['shared', ['y', 'z'], 'shared = 1'],
      ['a', ['y'], 'a = 2'],
      ['b', ['x'], 'b = 4'],
    ]);
  });

  it('trains a named stack, and what it reads only when that is not stored yet', async () => {
    const log: string[] = [];
    const registry = new StackRegistry([
      stack('x', [step('b', ['a'], log)]),
      stack('y', [step('a', [], log)]),
    ]);
    const artifacts = memoryArtifacts();
    const options = { registry, store: { context: toyContext() }, sets, artifacts, stacks: ['x'] };
    await trainStacks(options);
    expect(log).toEqual(['a', 'b']);
    await trainStacks(options);
    expect(log).toEqual(['a', 'b', 'b']);
  });

  it('hands each step only the sets it learns from', async () => {
    const seen: string[][] = [];
    const learner = (id: string, learnsFrom: TrainingStepV1['learnsFrom']): TrainingStepV1 => ({
      specificationVersion: 'v1',
      id,
      learnsFrom,
      reads: [],
      writes: [],
      async doTrain(options) {
        seen.push(options.sets.map((s) => s.name));
        return { summary: id };
      },
    });
    const registry = new StackRegistry([
      stack('x', [learner('people', ['labelled']), learner('all', ['labelled', 'synthesized'])]),
    ]);
    const synthesized = { ...sets[0]!, name: 'made', synthesized: true };
    await trainStacks({
      registry,
      store: { context: toyContext() },
      sets: [...sets, synthesized],
      artifacts: memoryArtifacts(),
    });
    expect(seen).toEqual([['toy'], ['toy', 'made']]);
  });

  it('says which artifact nothing writes, and which steps read each other in a circle', async () => {
    const log: string[] = [];
    const store = { context: toyContext() };
    const orphan = new StackRegistry([stack('x', [step('b', ['nowhere'], log)])]);
    await expect(
      trainStacks({ registry: orphan, store, sets, artifacts: memoryArtifacts() }),
    ).rejects.toThrow(/"b" reads artifact "nowhere.n", which no registered step writes/);
    const circle = new StackRegistry([
      stack('x', [step('a', ['b'], log)]),
      stack('y', [step('b', ['a'], log)]),
    ]);
    await expect(
      trainStacks({ registry: circle, store, sets, artifacts: memoryArtifacts() }),
    ).rejects.toThrow(/in a circle: a → b → a/);
  });

  it('fits the schema planner once for every stack that reads it', async () => {
    // A stack of a user's own that plans with the schema planner MoR's training fits.
    const registry = new StackRegistry([
      ...createStackRegistry().list(),
      stack('my-schema-stack', [schemaPlannerTraining]),
    ]);
    const chosen = ['mor-offline', 'my-schema-stack'];
    const entries = await Promise.all(chosen.map((name) => registry.entry(name)));
    const ids = entries.flatMap((entry) => entry.training!.map((s) => s.id));
    expect(ids).toEqual(['planner-schema', 'mor-offline', 'planner-schema']);
    const artifacts = memoryArtifacts();
    const result = await trainStacks({
      registry,
      store: { context: toyContext() },
      sets,
      artifacts,
      stacks: chosen,
    });
    expect(result.steps.map((s) => [s.step, s.stacks])).toEqual([
      ['planner-schema', ['mor-offline', 'my-schema-stack']],
      ['mor-offline', ['mor-offline']],
    ]);
  });

  it('reads a schema planner stored under its name before the rename (offline.planner-schema)', async () => {
    const artifacts = memoryArtifacts();
    const registry = createStackRegistry();
    await trainStacks({
      registry,
      store: { context: toyContext() },
      sets,
      artifacts,
      stacks: ['mor-offline'],
    });
    const old = memoryArtifacts();
    await old.put('offline.planner-schema', artifacts.stored.get(schemaPlannerRef.name));
    expect((await schemaPlannerArtifact.load(old, schemaPlannerRef)).status).toBe('loaded');
    // mor reads it, so it is not fitted again; only mor-offline's reranker, missing, is.
    const result = await trainStacks({
      registry,
      store: { context: toyContext() },
      sets,
      artifacts: old,
      stacks: ['mor'],
    });
    expect(result.steps.map((s) => s.step)).toEqual(['mor-offline', 'mor']);
  });
});
