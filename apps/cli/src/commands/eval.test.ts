import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { InMemoryTextIndex, toySkb } from '@weft/core/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.ts';
import { captureIo } from '../testing/capture-io.ts';
import { toyOpener, toyQueries, toyWorkspace } from '../testing/toy-store.ts';
import { createStackRegistry } from '@weft/stacks';
import { fittedOnFileName } from '@weft/store';
import type { StoreOpener } from './command-deps.ts';
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

  it('warns, on stderr and in --json, when updates since weft train made the trained artifacts stale', async () => {
    // Artifacts without FITTED-ON count as fitted on version 0; two updates since changed 5 records.
    await mkdir(path.join(workspace.db, 'artifacts'), { recursive: true });
    await writeFile(path.join(workspace.db, 'artifacts', 'eval-test.marker.json'), '{}\n');
    const opener = toyOpener();
    const updated: StoreOpener = async (directory, options) => {
      const store = await opener.open(directory, options);
      return { ...store, manifest: { ...store.manifest, storeVersion: 2, changedRecords: 5 } };
    };
    const command = createEvalCommand({ openStore: updated, registry: createStackRegistry() });
    const args = ['eval', workspace.bundle, '--db', workspace.db, '--set', 'toy', '--stack', 'bm25'];
    const c = captureIo();
    expect(await runCli([...args, '--json'], c.io, [command])).toBe(0);
    expect(c.err()).toContain(
      'warning: the trained artifacts were fitted on store version 0; 2 update(s) since changed 5 records',
    );
    const summary = JSON.parse(c.out());
    expect(summary.warnings).toHaveLength(1);
    expect(summary.warnings[0]).toContain('may be stale — run weft train to refit them');
    const text = captureIo();
    expect(await runCli(args, text.io, [command])).toBe(0);
    expect(text.err()).toContain('warning: the trained artifacts were fitted on store version 0');

    // Refitted on the version the store is at: no warning, and no warnings field.
    await writeFile(
      path.join(workspace.db, 'artifacts', fittedOnFileName),
      JSON.stringify({ storeVersion: 2, changedRecords: 5, fittedAt: '2026-01-02T00:00:00.000Z' }),
    );
    const refitted = captureIo();
    expect(await runCli([...args, '--json'], refitted.io, [command])).toBe(0);
    expect(refitted.err()).not.toContain('warning:');
    expect(JSON.parse(refitted.out()).warnings).toBeUndefined();
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

/** Toy questions with gold anchors and relational parts, as the judged query sets carry them. */
const anchoredQueries = [
  {
    id: 'a1',
    query: 'Which telephoto zoom lens for birds is made by Nikon?',
    answers: ['p:nikkor'],
    split: 'val',
    meta: {
      anchors: ['b:nikon'],
      relational_part: 'X --made_by--> A',
      textual_requirement: 'telephoto zoom lens for birds',
    },
  },
  {
    id: 'a2',
    query: 'Which lens works with the Canon EOS 90D?',
    answers: ['p:ef'],
    split: 'val',
    meta: { anchors: ['p:eos'], relational_part: 'X --compatible_with--> A', textual_requirement: 'lens' },
  },
  {
    id: 'a3',
    query: 'compact street photography camera',
    answers: ['p:q2'],
    split: 'val',
    meta: { template: 'text only' },
  },
];

describe('weft eval: linking and oracles', () => {
  const evalCommand = () =>
    createEvalCommand({ openStore: toyOpener().open, registry: createStackRegistry() });
  const anchoredSet = async () => {
    await writeFile(
      path.join(workspace.bundle, 'queries', 'anchored.jsonl'),
      `${anchoredQueries.map((q) => JSON.stringify(q)).join('\n')}\n`,
    );
  };
  const evalJson = async (extra: string[]) => {
    const c = captureIo();
    const code = await runCli(
      [
        'eval',
        workspace.bundle,
        '--db',
        workspace.db,
        '--set',
        'anchored',
        '--split',
        'val',
        '--json',
        ...extra,
      ],
      c.io,
      [evalCommand()],
    );
    return { code, summary: code === 0 ? JSON.parse(c.out()) : JSON.parse(c.out() || '{}'), err: c.err() };
  };

  it('reports linking per stack where the set carries gold anchors, and --oracle anchors links all of them', async () => {
    await anchoredSet();
    const own = await evalJson(['--stack', 'default']);
    expect(own.code).toBe(0);
    expect(own.summary.oracle).toBeUndefined();
    const [bm25, ownDefault] = own.summary.stacks;
    // Two of the three queries carry gold anchors; bm25 plans none.
    expect(bm25.linking).toEqual({ n: 2, recall: 0, recallTop1: 0, mentionsPerQuery: 0, precision: 0 });
    expect(ownDefault.linking.n).toBe(2);

    const oracle = await evalJson(['--stack', 'default', '--stack', 'mor-offline', '--oracle', 'anchors']);
    expect(oracle.code).toBe(0);
    expect(oracle.summary.oracle).toBe('anchors');
    for (const stack of oracle.summary.stacks)
      expect(stack.linking).toEqual({
        n: 2,
        recall: 100,
        recallTop1: 100,
        mentionsPerQuery: 1,
        precision: 100,
      });

    // The gold plan holds the gold anchors too (the queries without gold keep their own plans).
    const plan = await evalJson(['--stack', 'default', '--oracle', 'plan']);
    expect(plan.code).toBe(0);
    expect(plan.summary.oracle).toBe('plan');
    expect(plan.summary.stacks[1].linking).toMatchObject({ n: 2, recall: 100, recallTop1: 100 });
  });

  it('--oracle model runs mor and focused on the gold plans with no provider; noisy-model says its noise', async () => {
    await anchoredSet();
    const gold = await evalJson(['--stack', 'mor', '--stack', 'focused', '--oracle', 'model']);
    expect(gold.code).toBe(0);
    expect(gold.err).toMatch(/oracle model: gold plans for 2 of 3 queries \(2 with a relation path\)/);
    expect(gold.summary.oracle).toBe('model');
    const byName = Object.fromEntries(gold.summary.stacks.map((s: { stack: string }) => [s.stack, s]));
    // The planners asked on every query (llm-when always): mor one call, focused two (Cypher, reranker).
    expect(byName.mor.llmCallsPerQuery).toBe(1);
    expect(byName.focused.llmCallsPerQuery).toBe(2);
    // The gold plans link the gold anchors, and both anchored questions are answered first.
    expect(byName.mor.linking.recall).toBe(100);
    expect(byName.focused.linking.recall).toBe(100);
    expect([byName.bm25.hit1, byName.mor.hit1, byName.focused.hit1]).toEqual([66.7, 100, 100]);

    const noisy = await evalJson(['--stack', 'mor', '--oracle', 'noisy-model', '--oracle-noise', '1']);
    expect(noisy.code).toBe(0);
    expect(noisy.err).toMatch(/2 made wrong/);
    expect(noisy.err).toMatch(/and 2 answers of each judged stage \(weigh-experts, rank-list/);
    expect(noisy.summary.oracle).toBe('model (noise 1, seed 1)');
    const kept = await evalJson(['--stack', 'focused', '--oracle', 'model', '--oracle-rerank', 'keep']);
    expect(kept.code).toBe(0);
    expect(kept.err).toMatch(/rerankers keep the given order/);
    expect(kept.summary.oracle).toBe('model, rerankers keep the order');
    const judged = await evalJson([
      '--stack',
      'focused',
      '--oracle',
      'model',
      '--oracle-restriction',
      'annotation',
    ]);
    expect(judged.code).toBe(0);
    expect(judged.summary.oracle).toBe('model, judged restriction');
  });

  it('--record records the oracle model into a cassette that --replay answers with the same figures', async () => {
    await anchoredSet();
    const cassette = path.join(workspace.root, 'oracle.cassette.jsonl');
    const stacks = ['--stack', 'mor', '--stack', 'focused', '--stack', 'hybgrag', '--stack', 'kar'];
    const recorded = await evalJson([...stacks, '--oracle', 'model', '--record', cassette]);
    expect(recorded.code).toBe(0);
    expect(recorded.err).toMatch(/recording its calls into .*oracle\.cassette\.jsonl/);
    const lines = (await readFile(cassette, 'utf8')).split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(0);
    expect(JSON.parse(lines[0]!).model).toBe('oracle:gold');
    // No oracle and no provider: every call is answered from the cassette (a miss would fail the stage).
    const replayed = await evalJson([...stacks, '--replay', cassette, '--llm-when', 'always']);
    expect(replayed.code).toBe(0);
    expect(replayed.summary.oracle).toBeUndefined();
    const figures = (summary: { stacks: Record<string, unknown>[] }) =>
      summary.stacks.map(({ stack, hit1, hit5, recall20, mrr, llmCallsPerQuery, linking }) => ({
        stack,
        hit1,
        hit5,
        recall20,
        mrr,
        llmCallsPerQuery,
        linking,
      }));
    expect(figures(replayed.summary)).toEqual(figures(recorded.summary));
    const mor = replayed.summary.stacks.find((s: { stack: string }) => s.stack === 'mor');
    expect(mor.llmCallsPerQuery).toBe(1);
    expect(mor.hit1).toBe(100);
  });

  it('exits 2 on a bad --oracle, an oracle without gold anchors, and an oracle model beside --model', async () => {
    await anchoredSet();
    const run = async (args: string[]) => {
      const c = captureIo();
      const code = await runCli(['eval', workspace.bundle, '--db', workspace.db, ...args], c.io, [
        evalCommand(),
      ]);
      return { code, err: c.err() };
    };
    const noAnchors = await run(['--set', 'toy', '--oracle', 'anchors']);
    expect(noAnchors.code).toBe(2);
    expect(noAnchors.err).toMatch(/--oracle anchors needs gold anchors \(meta\.anchors\)/);
    expect((await run(['--set', 'anchored', '--split', 'val', '--oracle', 'perfect'])).err).toMatch(
      /--oracle must be anchors, plan, model, noisy-model/,
    );
    for (const args of [
      ['--oracle', 'perfect'],
      ['--oracle', 'model', '--model', 'openai:gpt-4o-mini'],
      ['--oracle', 'model', '--replay', 'oracle.cassette.jsonl'],
      ['--oracle', 'model', '--oracle', 'noisy-model'],
      ['--oracle', 'noisy-model', '--oracle-noise', '1.5'],
      ['--oracle', 'model', '--oracle-noise', '0.2'],
      ['--oracle', 'model', '--oracle-restriction', 'judge'],
      ['--oracle', 'anchors', '--oracle-restriction', 'annotation'],
      ['--oracle', 'anchors', '--oracle', 'plan'],
      ['--oracle', 'model', '--oracle-rerank', 'first'],
      ['--oracle', 'anchors', '--oracle-rerank', 'keep'],
    ])
      expect((await run(['--set', 'anchored', '--split', 'val', ...args])).code).toBe(2);
  });
});
