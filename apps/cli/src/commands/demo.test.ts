import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createStackRegistry } from '@weft/stacks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.ts';
import { captureIo } from '../testing/capture-io.ts';
import { toyOpener, toyWorkspace } from '../testing/toy-store.ts';
import { belowBaselineNotes, createDemoCommand, repositoryRoot } from './demo.ts';

let workspace: Awaited<ReturnType<typeof toyWorkspace>>;
beforeEach(async () => {
  workspace = await toyWorkspace();
});
afterEach(async () => {
  await workspace.cleanup();
});

describe('weft demo', () => {
  it('ingests when the store is missing, runs example queries with explanations and evaluates bm25 against the default stack', async () => {
    const ingested: string[] = [];
    const db = path.join(workspace.root, 'demo-store');
    const command = createDemoCommand({
      openStore: toyOpener().open,
      registry: createStackRegistry(),
      ingest: async (bundle, directory) => {
        ingested.push(bundle);
        const { mkdir } = await import('node:fs/promises');
        await mkdir(directory, { recursive: true });
        await writeFile(path.join(directory, 'store.json'), '{}');
      },
    });
    const c = captureIo();
    expect(
      await runCli(['demo', '--db', db, '--bundle', workspace.bundle, '--set', 'toy'], c.io, [command]),
    ).toBe(0);
    expect(ingested).toEqual([workspace.bundle]);
    const out = c.out();
    expect(out).toContain('Store: ');
    expect(out).toMatch(/=== weft query ".+" --stack \S+ --limit 5 --explain/);
    expect(out).toContain('Results:');
    expect(out).toMatch(/\| bm25 \| [\d.]+ \|/);
    expect(out).toContain('Next:');

    // Second run: the store exists, nothing is ingested.
    const again = captureIo();
    expect(
      await runCli(['demo', '--db', db, '--bundle', workspace.bundle, '--set', 'toy', '--json'], again.io, [
        command,
      ]),
    ).toBe(0);
    expect(ingested).toHaveLength(1);
    const summary = JSON.parse(again.out());
    expect(summary.examples).toHaveLength(3);
    expect(summary.evaluation.stacks[0].stack).toBe('bm25');
  });

  it('with a model (here a cassette to replay) also evaluates the LLM stacks, which fall back and report their calls', async () => {
    const db = path.join(workspace.root, 'demo-store');
    const { mkdir } = await import('node:fs/promises');
    await mkdir(db, { recursive: true });
    await writeFile(path.join(db, 'store.json'), '{}');
    const cassette = path.join(workspace.root, 'empty.jsonl');
    await writeFile(cassette, '');
    const c = captureIo();
    const command = createDemoCommand({ openStore: toyOpener().open, registry: createStackRegistry() });
    expect(
      await runCli(
        [
          'demo',
          '--db',
          db,
          '--bundle',
          workspace.bundle,
          '--set',
          'toy',
          '--replay',
          cassette,
          '--llm-when',
          'always',
          '--json',
        ],
        c.io,
        [command],
      ),
    ).toBe(0);
    const { evaluation } = JSON.parse(c.out());
    const stacks = Object.fromEntries(evaluation.stacks.map((s: { stack: string }) => [s.stack, s]));
    expect(Object.keys(stacks)).toEqual(['bm25', 'default', 'mor', 'focused']);
    // Every call missed the empty cassette: made (and counted), answered by the offline stages.
    expect(stacks.mor.llmCallsPerQuery).toBe(1);
    expect(stacks.focused.llmCallsPerQuery).toBe(2);
    expect(stacks.focused.tokensPerQuery).toEqual({ input: 0, output: 0 });
  });

  it('exits 2 without a bundle, and finds the repository root', async () => {
    const c = captureIo();
    expect(
      await runCli(['demo', '--bundle', '/no/such/bundle'], c.io, [
        createDemoCommand({ openStore: toyOpener().open, registry: createStackRegistry() }),
      ]),
    ).toBe(2);
    expect(c.err()).toContain('no SKB bundle at /no/such/bundle');
    expect(repositoryRoot()).toBe(path.resolve(import.meta.dirname, '../../../..'));
  });
});

describe('belowBaselineNotes', () => {
  const summary = (hit1: number, mrr: number, significant = false) => ({
    set: 'demo',
    split: 'test',
    n: 12,
    listLength: 100,
    stacks: [
      { stack: 'bm25', hit1: 58.3, mrr: 60.0 },
      { stack: 'default', hit1, mrr },
    ] as never,
    comparisons: [
      {
        baseline: 'bm25',
        stack: 'default',
        hit1: { diff: hit1 - 58.3, low: -40, high: significant ? -1 : 16, significant },
        mrr: { diff: mrr - 60, low: -20, high: 18, significant: false },
      },
    ],
  });

  it('says plainly when the default stack is below bm25 on the demo set, and whether that is noise', () => {
    const [, note] = belowBaselineNotes(summary(50.0, 59.0), 'default', 'bm25');
    expect(note).toContain(
      'the default stack is BELOW bm25 on Hit@1 (50.0 vs 58.3) and MRR (59.0 vs 60.0); with 12 queries the difference is within noise',
    );
    expect(belowBaselineNotes(summary(50.0, 61.0, true), 'default', 'bm25')[1]).toContain(
      'BELOW bm25 on Hit@1 (50.0 vs 58.3), beyond noise.',
    );
  });

  it('says nothing when the default stack is level or above', () => {
    expect(belowBaselineNotes(summary(66.7, 70.0), 'default', 'bm25')).toEqual([]);
    expect(belowBaselineNotes(summary(58.3, 60.0), 'default', 'bm25')).toEqual([]);
  });
});
