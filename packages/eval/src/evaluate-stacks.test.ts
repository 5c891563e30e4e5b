import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Candidate, RetrievalResult, RetrieverV1, RetrieveOptions, SkbQuery } from '@weft/spec';
import { describe, expect, it } from 'vitest';
import { compareStacks } from './compare-stacks.ts';
import { evaluateStacks, type QueryRecord } from './evaluate-stacks.ts';
import { evaluationMarkdown, evaluationSummary } from './evaluation-report.ts';
import { listQuerySets, readQuerySet } from './read-query-set.ts';

const query = (id: string, text: string, answers: string[]): SkbQuery => ({
  id,
  query: text,
  answers,
  split: 'test',
});

/** A stack that answers from a table keyed by query text, recording what it was asked. */
function tableStack(
  name: string,
  table: Record<string, (string | [string, string])[]>,
  options: { delayMs?: number; llmCalls?: number | ((query: string) => number) } = {},
) {
  const callsFor = (query: string) =>
    typeof options.llmCalls === 'function' ? options.llmCalls(query) : (options.llmCalls ?? 0);
  const calls: RetrieveOptions[] = [];
  let running = 0;
  let maxRunning = 0;
  const retriever: RetrieverV1 = {
    specificationVersion: 'v1',
    name,
    async doRetrieve(request): Promise<RetrievalResult> {
      calls.push(request);
      running++;
      maxRunning = Math.max(maxRunning, running);
      await new Promise((resolve) => setTimeout(resolve, options.delayMs ?? 0));
      running--;
      const entries = table[request.query];
      if (!entries) throw new Error(`no answer for ${request.query}`);
      const ranking: Candidate[] = entries.map((entry, i) => {
        const [id, type] = Array.isArray(entry) ? entry : [entry, undefined];
        return {
          id,
          ...(type ? { type } : {}),
          score: 10 - i,
          scores: {},
          trajectories: [{ hops: [{ node: id, via: 'text' }] }],
        };
      });
      return {
        ranking,
        trace: {
          stack: name,
          query: request.query,
          stages: [],
          rounds: 1,
          feedback: [],
          llmCalls: callsFor(request.query),
          inputTokens: 10 * callsFor(request.query),
          outputTokens: 0,
          durationMs: 1,
        },
      };
    },
  };
  return { retriever, calls, maxRunning: () => maxRunning };
}

const queries = [
  query('q1', 'first', ['g1']),
  query('q2', 'second', ['g2', 'g3']),
  query('q3', 'third', ['g4']),
];

describe('evaluateStacks', () => {
  it('scores every stack on every query and summarises in percent', async () => {
    const a = tableStack('a', { first: ['g1', 'x'], second: ['x', 'g3'], third: ['x'] }, { llmCalls: 2 });
    const b = tableStack('b', { first: ['x', 'g1'], second: ['g2', 'g3'], third: ['g4'] });
    const records: QueryRecord[] = [];
    const progress: number[] = [];
    const result = await evaluateStacks({
      stacks: [a.retriever, b.retriever],
      queries,
      listLength: 50,
      onRecord: (record) => {
        records.push(record);
      },
      onProgress: (done) => progress.push(done),
    });
    expect(result.n).toBe(3);
    expect(result.listLength).toBe(50);
    const [sa, sb] = result.stacks;
    // a: q1 rank 1, q2 rank 2 (1 of 2 gold), q3 miss.
    expect(sa!.metrics.hit1).toBeCloseTo(100 / 3, 10);
    expect(sa!.metrics.hit5).toBeCloseTo(200 / 3, 10);
    expect(sa!.metrics.recall20).toBeCloseTo(50, 10);
    expect(sa!.metrics.mrr).toBeCloseTo(50, 10);
    expect(sa!.llmCallsPerQuery).toBe(2);
    expect(sa!.tokensPerQuery.input).toBe(20);
    expect(evaluationSummary(result, { set: 's', split: 'test' }).stacks[0]).toMatchObject({
      llmCallsPerQuery: 2,
      llmCallsMedian: 2,
      llmCallsMax: 2,
      tokensPerQuery: { input: 20, output: 0 },
    });
    // Calls that vary per query: the median and the maximum say what the mean hides.
    const varying = tableStack(
      'c',
      { first: ['g1'], second: ['g2'], third: ['g4'] },
      {
        llmCalls: (q) => ({ first: 0, second: 1, third: 5 })[q] ?? 0,
      },
    );
    const spread = await evaluateStacks({ stacks: [varying.retriever], queries });
    expect(evaluationSummary(spread, { set: 's', split: 'test' }).stacks[0]).toMatchObject({
      llmCallsPerQuery: 2,
      llmCallsMedian: 1,
      llmCallsMax: 5,
    });
    // b: q1 rank 2, q2 rank 1 (2 of 2), q3 rank 1.
    expect(sb!.metrics.hit1).toBeCloseTo(200 / 3, 10);
    expect(sb!.metrics.recall20).toBeCloseTo(100, 10);
    expect(sb!.metrics.mrr).toBeCloseTo((0.5 + 1 + 1) * (100 / 3), 10);
    expect(records).toHaveLength(6);
    expect(sa!.records.map((r) => r.queryId)).toEqual(['q1', 'q2', 'q3']);
    expect(progress.at(-1)).toBe(6);
    // The retriever sees the query text and the list length only, never the query id.
    for (const call of [...a.calls, ...b.calls]) {
      expect(Object.keys(call).sort()).toEqual(['limit', 'query']);
      expect(call.limit).toBe(50);
    }
  });

  it('never runs more retrievals at once than the concurrency allows', async () => {
    const table = { first: ['g1'], second: ['g2'], third: ['g4'] };
    const a = tableStack('a', table, { delayMs: 5 });
    const b = tableStack('b', table, { delayMs: 5 });
    await evaluateStacks({ stacks: [a.retriever, b.retriever], queries, concurrency: 1 });
    expect(Math.max(a.maxRunning(), b.maxRunning())).toBe(1);
    const c = tableStack('c', table, { delayMs: 5 });
    await evaluateStacks({ stacks: [c.retriever], queries, concurrency: 3 });
    expect(c.maxRunning()).toBe(3);
  });

  it('scores only target types, resolving untyped candidates', async () => {
    // The brand b1 sits at rank 1; once dropped, the product p1 is rank 1.
    const stack = tableStack('s', { first: [['b1', 'brand'], 'p1', ['b2', 'brand'], 'p2'] });
    const resolved: string[][] = [];
    const result = await evaluateStacks({
      stacks: [stack.retriever],
      queries: [query('q1', 'first', ['p2'])],
      targetTypes: ['product'],
      resolveTypes: async (ids) => {
        resolved.push([...ids]);
        return ids.map((id) => (id.startsWith('p') ? 'product' : 'brand'));
      },
    });
    expect(resolved).toEqual([['p1', 'p2']]);
    const record = result.stacks[0]!.records[0]!;
    expect(record.ranking.map((r) => r.id)).toEqual(['p1', 'p2']);
    expect(record.metrics).toEqual({ hit1: 0, hit5: 1, recall20: 1, mrr: 0.5 });
  });

  it('aborts on the first failure, or records it with continueOnError', async () => {
    const broken = tableStack('broken', { first: ['g1'] });
    await expect(evaluateStacks({ stacks: [broken.retriever], queries })).rejects.toMatchObject({
      code: 'WEFT_STAGE_FAILED',
      message: expect.stringContaining('stack "broken" failed on query q2'),
    });
    const result = await evaluateStacks({ stacks: [broken.retriever], queries, continueOnError: true });
    expect(result.stacks[0]!.errors).toBe(2);
    expect(result.stacks[0]!.metrics.hit1).toBeCloseTo(100 / 3, 10);
  });

  it('rejects bad options', async () => {
    const a = tableStack('a', {});
    await expect(evaluateStacks({ stacks: [a.retriever, a.retriever], queries })).rejects.toMatchObject({
      code: 'WEFT_BAD_INPUT',
    });
    await expect(evaluateStacks({ stacks: [a.retriever], queries, listLength: 0 })).rejects.toMatchObject({
      code: 'WEFT_BAD_INPUT',
    });
    await expect(
      evaluateStacks({ stacks: [a.retriever], queries: [query('q', 'x', [])] }),
    ).rejects.toMatchObject({ code: 'WEFT_BAD_INPUT' });
  });
});

describe('compareStacks and reports', () => {
  it('reports the paired difference in points and the summary in the documented shape', async () => {
    const many = Array.from({ length: 60 }, (_, i) => query(`q${i}`, `text ${i}`, [`g${i}`]));
    // baseline: right on every third query; other: right on two of three.
    const baseline = tableStack(
      'bm25',
      Object.fromEntries(many.map((q, i) => [q.query, i % 3 === 0 ? [`g${i}`] : ['x']])),
    );
    const other = tableStack(
      'other',
      Object.fromEntries(many.map((q, i) => [q.query, i % 3 !== 2 ? [`g${i}`] : ['x']])),
    );
    const evaluation = await evaluateStacks({ stacks: [baseline.retriever, other.retriever], queries: many });
    const comparison = compareStacks(evaluation.stacks[0]!, evaluation.stacks[1]!, { seed: 5 });
    expect(comparison.hit1.mean).toBeCloseTo(100 / 3, 8);
    expect(comparison.hit1.significant).toBe(true);
    expect(compareStacks(evaluation.stacks[0]!, evaluation.stacks[1]!, { seed: 5 })).toEqual(comparison);

    const summary = evaluationSummary(evaluation, { set: 'toy', split: 'test' }, [comparison]);
    expect(Object.keys(summary)).toEqual(['set', 'split', 'n', 'listLength', 'stacks', 'comparisons']);
    expect(Object.keys(summary.stacks[0]!)).toEqual([
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
    expect(summary.stacks[0]!.hit1).toBe(33.3);
    expect(summary.stacks[1]!.hit1).toBe(66.7);
    const markdown = evaluationMarkdown(summary);
    expect(markdown).toContain('| bm25 | 33.3 |');
    expect(markdown).toContain('| 0.00 (0, 0) |');
    expect(markdown).toContain('| other vs bm25 | +33.3*');

    const fewer = await evaluateStacks({ stacks: [other.retriever], queries: many.slice(1) });
    expect(() => compareStacks(evaluation.stacks[0]!, fewer.stacks[0]!)).toThrow(/same queries/);
  });
});

describe('readQuerySet', () => {
  it('reads plain and gzipped sets, filters a split and names the bad line', async () => {
    const bundle = await mkdtemp(path.join(os.tmpdir(), 'weft-eval-'));
    try {
      await mkdir(path.join(bundle, 'queries'));
      const lines = [
        { id: 'a', query: 'x', answers: ['n1'], split: 'train' },
        { id: 'b', query: 'y', answers: ['n2', 'n3'], split: 'test' },
      ];
      await writeFile(
        path.join(bundle, 'queries', 'plain.jsonl'),
        `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`,
      );
      await writeFile(
        path.join(bundle, 'queries', 'zipped.jsonl.gz'),
        gzipSync(lines.map((l) => JSON.stringify(l)).join('\n')),
      );
      await writeFile(
        path.join(bundle, 'queries', 'bad.jsonl'),
        `${JSON.stringify(lines[0])}\n{"id":"c","query":"z","answers":[],"split":"test"}\n`,
      );
      expect(await listQuerySets(bundle)).toEqual(['bad', 'plain', 'zipped']);
      expect((await readQuerySet(bundle, 'plain')).map((q) => q.id)).toEqual(['a', 'b']);
      expect((await readQuerySet(bundle, 'zipped', { split: 'test' })).map((q) => q.id)).toEqual(['b']);
      await expect(readQuerySet(bundle, 'bad')).rejects.toMatchObject({
        code: 'WEFT_BAD_INPUT',
        message: 'bad.jsonl:2: "answers" must be a non-empty array of node ids',
      });
      await expect(readQuerySet(bundle, 'nope')).rejects.toThrow(
        /no query set "nope".*sets: bad, plain, zipped/,
      );
    } finally {
      await rm(bundle, { recursive: true, force: true });
    }
  });
});
