import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { InMemoryTextIndex, toySkb } from '@weft/core/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.ts';
import { captureIo } from '../testing/capture-io.ts';
import { toyOpener, toyQueries, toyWorkspace } from '../testing/toy-store.ts';
import { createStackRegistry } from '@weft/stacks';
import { createEvalCommand } from './eval.ts';

let workspace: Awaited<ReturnType<typeof toyWorkspace>>;
beforeEach(async () => {
  workspace = await toyWorkspace();
});
afterEach(async () => {
  await workspace.cleanup();
});

/** BM25 figures computed directly from the reference index, independently of @weft/eval. */
async function referenceBm25(listLength: number) {
  const index = new InMemoryTextIndex(toySkb().nodes);
  const test = toyQueries.filter((q) => q.split === 'test');
  let hit1 = 0;
  let mrr = 0;
  for (const q of test) {
    const [hits] = await index.doSearch({
      queries: [q.query],
      limit: listLength,
      filter: { nodeTypes: ['product'] },
    });
    const ids = hits!.map((h) => h.id);
    if (q.answers.includes(ids[0]!)) hit1++;
    const first = ids.findIndex((id) => q.answers.includes(id));
    if (first >= 0) mrr += 1 / (first + 1);
  }
  return { n: test.length, hit1: (100 * hit1) / test.length, mrr: (100 * mrr) / test.length };
}

describe('weft eval', () => {
  it('--json prints exactly one JSON object with the documented fields, bm25 first as the yardstick', async () => {
    const opener = toyOpener();
    const c = captureIo();
    const code = await runCli(
      [
        'eval',
        workspace.bundle,
        '--db',
        workspace.db,
        '--set',
        'toy',
        '--stack',
        'hybrid-rrf',
        '--json',
        '--concurrency',
        '2',
      ],
      c.io,
      [createEvalCommand({ openStore: opener.open, registry: createStackRegistry() })],
    );
    expect(code).toBe(0);
    const out = c.out();
    expect(out.trim().split('\n')).toHaveLength(1);
    const summary = JSON.parse(out);
    expect(Object.keys(summary)).toEqual(['set', 'split', 'n', 'listLength', 'stacks', 'comparisons']);
    expect(summary).toMatchObject({ set: 'toy', split: 'test', n: 5, listLength: 100 });
    expect(summary.stacks.map((s: { stack: string }) => s.stack)).toEqual(['bm25', 'hybrid-rrf']);
    for (const stack of summary.stacks) {
      expect(Object.keys(stack)).toEqual([
        'stack',
        'hit1',
        'hit5',
        'recall20',
        'mrr',
        'latencyMs',
        'llmCallsPerQuery',
        'llmCallsMedian',
        'llmCallsMax',
        'tokensPerQuery',
      ]);
      expect(Object.keys(stack.latencyMs)).toEqual(['p50', 'p95']);
      expect(stack.llmCallsPerQuery).toBe(0);
      expect(stack.tokensPerQuery).toEqual({ input: 0, output: 0 });
    }
    const reference = await referenceBm25(100);
    expect(summary.stacks[0].hit1).toBeCloseTo(reference.hit1, 1);
    expect(summary.stacks[0].mrr).toBeCloseTo(reference.mrr, 1);
    expect(summary.comparisons).toEqual([
      expect.objectContaining({
        baseline: 'bm25',
        stack: 'hybrid-rrf',
        hit1: expect.objectContaining({ diff: expect.any(Number) }),
      }),
    ]);
    expect(opener.closed()).toBe(1);
  });

  it('prints a Markdown table, honours --split, --max-queries and --limit, and writes --out files', async () => {
    const c = captureIo();
    const out = path.join(workspace.root, 'results');
    const code = await runCli(
      [
        'eval',
        workspace.bundle,
        '--db',
        workspace.db,
        '--set',
        'toy',
        '--split',
        'train',
        '--max-queries',
        '1',
        '--limit',
        '5',
        '--stack',
        'bm25',
        '--out',
        out,
      ],
      c.io,
      [createEvalCommand({ openStore: toyOpener().open, registry: createStackRegistry() })],
    );
    expect(code).toBe(0);
    expect(c.out()).toContain('**toy** (train), 1 queries, rankings of 5');
    expect(c.out()).toMatch(/\| bm25 \| 100\.0 \|/);
    const records = (await readFile(path.join(out, 'records.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ stack: 'bm25', queryId: 't1', gold: ['p:ef'], metrics: { hit1: 1 } });
    expect(records[0].ranking.length).toBeLessThanOrEqual(5);
    expect(records[0].trace.stages[0]).toMatchObject({ kind: 'traverser', name: 'bm25' });
    expect(JSON.parse(await readFile(path.join(out, 'summary.json'), 'utf8')).n).toBe(1);
    expect(await readFile(path.join(out, 'summary.md'), 'utf8')).toContain('| bm25 |');
  });

  it('exits 2 on an unknown set, a bad split, a missing bundle, or a store without the gold answers', async () => {
    const command = createEvalCommand({ openStore: toyOpener().open, registry: createStackRegistry() });
    const unknown = captureIo();
    expect(
      await runCli(['eval', workspace.bundle, '--db', workspace.db, '--set', 'nope'], unknown.io, [command]),
    ).toBe(2);
    expect(unknown.err()).toContain('no query set "nope"');
    const split = captureIo();
    expect(
      await runCli(
        ['eval', workspace.bundle, '--db', workspace.db, '--set', 'toy', '--split', 'dev'],
        split.io,
        [command],
      ),
    ).toBe(2);
    const bundle = captureIo();
    expect(
      await runCli(['eval', '/no/such/bundle', '--db', workspace.db, '--set', 'toy'], bundle.io, [command]),
    ).toBe(2);
    const { writeFile } = await import('node:fs/promises');
    await writeFile(
      path.join(workspace.bundle, 'queries', 'other.jsonl'),
      `${JSON.stringify({ id: 'x1', query: 'q', answers: ['wn:123'], split: 'test' })}\n`,
    );
    const gold = captureIo();
    expect(
      await runCli(['eval', workspace.bundle, '--db', workspace.db, '--set', 'other', '--json'], gold.io, [
        command,
      ]),
    ).toBe(2);
    expect(JSON.parse(gold.out()).error.message).toMatch(
      /1 of 1 checked gold answers \(e\.g\. wn:123\) are not in the store/,
    );
  });
});
