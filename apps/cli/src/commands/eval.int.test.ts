import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.ts';
import { captureIo } from '../testing/capture-io.ts';
import { referenceBm25Figures } from '../testing/reference-bm25.ts';
import { repositoryRoot, sharedDirectory } from './demo.ts';
import { commands } from './index.ts';

const bundle = path.join(sharedDirectory(repositoryRoot()), 'datasets', 'wordnet');
let root: string;
let db: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'weft-eval-int-'));
  db = path.join(root, 'wordnet');
  const c = captureIo();
  const code = await runCli(['ingest', bundle, '--db', db], c.io, commands);
  if (code !== 0) throw new Error(`weft ingest failed: ${c.err()}`);
}, 600_000);

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

describe('weft eval and weft query on WordNet', () => {
  // All 105 test queries: on a subset one query is worth several points.
  it('bm25 on hybrid/test agrees (±2 points) with an independent reference BM25 over the same documents', async () => {
    const c = captureIo();
    const code = await runCli(
      ['eval', bundle, '--db', db, '--set', 'hybrid', '--split', 'test', '--stack', 'bm25', '--json'],
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

  it('query --explain shows the plan and how each result was reached', async () => {
    const c = captureIo();
    const code = await runCli(
      [
        'query',
        'a large wild cat with a spotted coat',
        '--db',
        db,
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
    expect(c.out()).toMatch(/1\. .+ \(noun\.\w+\) \[wn:\d{8}-n\]/);
    expect(c.out()).toMatch(/via .+ ‹text \d/);
  }, 120_000);
});
