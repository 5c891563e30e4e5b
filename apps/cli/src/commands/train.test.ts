import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.ts';
import { createStackRegistry, loadTrainingSets, StackRegistry, stackTrains } from '@weft/stacks';
import { captureIo } from '../testing/capture-io.ts';
import { toyOpener, toyWorkspace } from '../testing/toy-store.ts';
import { createTrainCommand } from './train.ts';

let workspace: Awaited<ReturnType<typeof toyWorkspace>>;
beforeEach(async () => {
  workspace = await toyWorkspace();
});
afterEach(async () => {
  await workspace.cleanup();
});

describe('weft train', () => {
  it("adds text-only queries synthesised from the bundle's nodes, marked textOnly, when asked", async () => {
    const seen: { name: string; textOnly: boolean; train: number; val: number }[][] = [];
    const registry = new StackRegistry([
      {
        name: 'sets-seen-test',
        description: 'remembers the sets it was given',
        create: (store) => ({ name: 'sets-seen-test', context: store.context, traversers: [] }),
        training: [
          {
            specificationVersion: 'v1',
            id: 'sets-seen-test',
            learnsFrom: ['labelled', 'synthesized'],
            reads: [],
            writes: [],
            async doTrain(options) {
              seen.push(
                options.sets.map((s) => ({
                  name: s.name,
                  textOnly: s.textOnly === true,
                  train: s.train.length,
                  val: s.val.length,
                })),
              );
              return { summary: 'ok' };
            },
          },
        ],
      },
    ]);
    const command = createTrainCommand({ openStore: toyOpener().open, registry });
    const c = captureIo();
    expect(await runCli(['train', workspace.bundle, '--db', workspace.db], c.io, [command])).toBe(0);
    expect(c.err()).not.toMatch(/weft train:/);
    const synthetic = seen[0]!.find((s) => s.textOnly);
    expect(synthetic?.name).toBe('text (synthesised)');
    expect(synthetic!.train + synthetic!.val).toBeGreaterThan(0);
    expect(seen[0]!.find((s) => s.name === 'toy')).toEqual({
      name: 'toy',
      textOnly: false,
      train: 2,
      val: 1,
    });
    expect(
      await runCli(['train', workspace.bundle, '--db', workspace.db, '--text-queries', '0'], c.io, [command]),
    ).toBe(0);
    expect(seen[1]!.map((s) => s.name)).toEqual(['toy']);
    expect(
      await runCli(['train', workspace.bundle, '--db', workspace.db, '--text-queries', '-1'], c.io, [
        command,
      ]),
    ).toBe(2);
  });

  it('trains from the store alone on synthesised queries when no bundle is given', async () => {
    const seen: string[][] = [];
    const registry = new StackRegistry([
      {
        name: 'store-only-test',
        description: 'remembers the sets it was given',
        create: (store) => ({ name: 'store-only-test', context: store.context, traversers: [] }),
        training: [
          {
            specificationVersion: 'v1',
            id: 'toy',
            learnsFrom: ['labelled', 'synthesized'],
            reads: [],
            writes: [],
            async doTrain(options) {
              seen.push(options.sets.map((s) => `${s.name}:${s.synthesized === true}:${s.train.length > 0}`));
              return { summary: 'ok' };
            },
          },
        ],
      },
    ]);
    const command = createTrainCommand({ openStore: toyOpener().open, registry });
    const c = captureIo();
    expect(
      await runCli(['train', '--db', workspace.db, '--synth', '20', '--text-queries', '5'], c.io, [command]),
    ).toBe(0);
    expect(seen[0]).toContain('hybrid (synthesised):true:true');
    // By default others describe the related node instead of naming it.
    expect(seen[0]).toContain('described (synthesised):true:true');
    expect(
      await runCli(['train', '--db', workspace.db, '--synth', '20', '--described', '0'], c.io, [command]),
    ).toBe(0);
    expect(seen[1]!.join()).not.toContain('described');
    expect(await runCli(['train', '--db', workspace.db, '--set', 'toy'], c.io, [command])).toBe(2);
    expect(c.err()).toContain('--set names a query set of a bundle');
  });

  it('says so and exits 0 when no stack has learned parts', async () => {
    const registry = new StackRegistry(
      createStackRegistry()
        .list()
        .filter((e) => !stackTrains(e)),
    );
    const c = captureIo();
    expect(
      await runCli(['train', workspace.bundle, '--db', workspace.db, '--text-queries', '0'], c.io, [
        createTrainCommand({ openStore: toyOpener().open, registry }),
      ]),
    ).toBe(0);
    expect(c.out()).toContain('No stack has learned parts; nothing to train (sets: toy (2 train, 1 val))');
  });

  it("calls each stack's train hook with train/val splits and replaces the store's artifacts", async () => {
    const seen: { train: string[]; val: string[] }[] = [];
    let run = 0;
    const registry = new StackRegistry([
      {
        name: 'trainable-test',
        description: 'remembers how often it was trained',
        create: (store) => ({ name: 'trainable-test', context: store.context, traversers: [] }),
        training: [
          {
            specificationVersion: 'v1',
            id: 'trainable-test',
            learnsFrom: ['labelled', 'synthesized'],
            reads: [],
            writes: [],
            async doTrain(options) {
              run++;
              seen.push({
                train: options.sets[0]!.train.map((q) => q.id),
                val: options.sets[0]!.val.map((q) => q.id),
              });
              await options.context.artifacts.put(`run-${run}`, { run });
              await options.context.artifacts.put('weights', { run });
              return { summary: `fitted run ${run}`, details: { run } };
            },
          },
        ],
      },
    ]);
    // Only this test's stack: the built-in stacks are trained in their own tests.
    const command = createTrainCommand({ openStore: toyOpener().open, registry });
    const first = captureIo();
    expect(
      await runCli(['train', workspace.bundle, '--db', workspace.db, '--set', 'toy'], first.io, [command]),
    ).toBe(0);
    expect(first.out()).toContain('trainable-test: fitted run 1');
    expect(seen[0]).toEqual({ train: ['t1', 't2'], val: ['v1'] });
    const artifacts = path.join(workspace.db, 'artifacts');
    expect(JSON.parse(await readFile(path.join(artifacts, 'weights.json'), 'utf8'))).toEqual({ run: 1 });

    const second = captureIo();
    expect(
      await runCli(
        ['train', workspace.bundle, '--db', workspace.db, '--json', '--text-queries', '0'],
        second.io,
        [command],
      ),
    ).toBe(0);
    const report = JSON.parse(second.out());
    expect(report.steps).toHaveLength(1);
    expect(report.steps[0]).toEqual({
      step: 'trainable-test',
      stacks: ['trainable-test'],
      summary: 'fitted run 2',
      details: { run: 2 },
    });
    // Re-running replaces: the first run's files are gone.
    expect(JSON.parse(await readFile(path.join(artifacts, 'weights.json'), 'utf8'))).toEqual({ run: 2 });
    expect(existsSync(path.join(artifacts, 'run-1.json'))).toBe(false);
    expect(existsSync(path.join(artifacts, 'run-2.json'))).toBe(true);

    // Training a named stack keeps the other artifacts.
    const third = captureIo();
    expect(
      await runCli(
        ['train', workspace.bundle, '--db', workspace.db, '--stack', 'trainable-test', '--text-queries', '0'],
        third.io,
        [command],
      ),
    ).toBe(0);
    expect(existsSync(path.join(artifacts, 'run-2.json'))).toBe(true);
    expect(existsSync(path.join(artifacts, 'run-3.json'))).toBe(true);
  });

  it('exits 2 for a named set without a train split', async () => {
    const { writeFile } = await import('node:fs/promises');
    await writeFile(
      path.join(workspace.bundle, 'queries', 'testonly.jsonl'),
      `${JSON.stringify({ id: 'a', query: 'q', answers: ['p:q2'], split: 'test' })}\n`,
    );
    await expect(loadTrainingSets(workspace.bundle, ['testonly'])).rejects.toMatchObject({
      code: 'WEFT_BAD_INPUT',
    });
    expect((await loadTrainingSets(workspace.bundle, [])).map((s) => s.name)).toEqual(['toy']);
    const c = captureIo();
    expect(
      await runCli(['train', workspace.bundle, '--db', workspace.db, '--set', 'testonly'], c.io, [
        createTrainCommand({ openStore: toyOpener().open, registry: createStackRegistry() }),
      ]),
    ).toBe(2);
    expect(c.err()).toContain('query set "testonly" of');
    expect(c.err()).toContain('has no train split');
  });

  it('trained on synthesised queries only, the default stack says so (not "no labelled queries")', async () => {
    const c = captureIo();
    const command = createTrainCommand({ openStore: toyOpener().open, registry: createStackRegistry() });
    expect(
      await runCli(
        ['train', '--db', workspace.db, '--stack', 'default', '--synth', '20', '--text-queries', '5'],
        c.io,
        [command],
      ),
    ).toBe(0);
    expect(c.out()).not.toContain('no labelled queries: mentions only');
    expect(c.out()).toMatch(/default: planner: trained on \d+ queries synthesised from the store/);
  });
});
