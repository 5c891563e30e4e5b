import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { wordnetBundle } from '@weft-dev/test-data';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.ts';
import { captureIo } from '../testing/capture-io.ts';
import { commands } from './index.ts';

/**
 * The README's own example and the everyday relational questions (`queries/everyday.jsonl` of the
 * WordNet 3.1 bundle: "a part of the eye", "kinds of bread", "the opposite of hot"), on an untrained
 * store built from the npm package as a new user builds it.
 */
describe('everyday relational questions on the untrained WordNet 3.1 store', () => {
  let root = '';
  let bundle = '';
  let db = '';
  beforeAll(async () => {
    bundle = await wordnetBundle();
    root = await mkdtemp(path.join(os.tmpdir(), 'weft-everyday-'));
    db = path.join(root, 'wordnet');
    const c = captureIo();
    const code = await runCli(['ingest', bundle, '--db', db], c.io, commands);
    if (code !== 0) throw new Error(`weft ingest failed: ${c.err()}`);
  }, 600_000);
  afterAll(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  const run = async (args: string[]) => {
    const c = captureIo();
    const code = await runCli(args, c.io, commands);
    expect(code, c.err()).toBe(0);
    return JSON.parse(c.out());
  };
  /** `weft eval` of the default stack on the everyday set's val split, as JSON. */
  const evalEveryday = (extra: string[]) =>
    run([
      'eval',
      bundle,
      '--db',
      db,
      '--set',
      'everyday',
      '--split',
      'val',
      '--stack',
      'default',
      ...extra,
      '--json',
    ]);

  it('"a part of the eye" puts parts of the eye (the organ of sight) first', async () => {
    const result = await run(['query', '--db', db, 'a part of the eye', '--limit', '3', '--json']);
    const queries = (await readFile(path.join(bundle, 'queries', 'everyday.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const eye = queries.find((q) => q.query === 'a part of the eye');
    expect(eye.answers.length).toBeGreaterThan(10);
    const ids = result.results.map((r: { id: string }) => r.id);
    for (const id of ids) expect(eye.answers, `${id} is a part of the eye`).toContain(id);
  }, 300_000);

  it('the default answers the everyday questions first far more often than bm25-rel, and the gold plan more still', async () => {
    const summary = await evalEveryday(['--compare-to', 'bm25-rel']);
    const hit1 = Object.fromEntries(
      summary.stacks.map((s: { stack: string; hit1: number }) => [s.stack, s.hit1]),
    );
    expect(hit1.default).toBeGreaterThanOrEqual(hit1['bm25-rel'] + 30);
    const gold = await evalEveryday(['--oracle', 'plan']);
    expect(gold.oracle).toBe('plan');
    const withPlan = gold.stacks.find((s: { stack: string }) => s.stack === 'default');
    expect(withPlan.hit1).toBeGreaterThanOrEqual(hit1.default);
  }, 600_000);
});
