import { searchText } from '@weft/kit';
import { toySkb } from '@weft/core/test';
import type { IndexHit, SkbNode, TextIndexV1, TextIndexV2 } from '@weft/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeError, isAbortError } from './is-abort-error.ts';
import { recordingTextIndex } from './recording-text-index.ts';

export interface TextIndexSuiteOptions {
  readonly name: string;
  /** Builds an index over `nodes` (name, aliases and text). The suite closes it. */
  create(nodes: readonly SkbNode[]): Promise<TextIndexV1 | TextIndexV2>;
}

/** Queries that have broken query parsers; an index must treat them as plain text. */
export const hostileQueries = [
  '"',
  '"unbalanced quote',
  'mount:F',
  '(telephoto',
  'zoom)',
  '-lens',
  'lens*',
  '*',
  'AND',
  'telephoto AND OR NOT lens',
  '+wildlife -night',
  'wild~ card^2',
  'back\\slash',
  "it's a lens",
  '相机 镜头',
  '   ',
  '!!!???',
  '[a TO z]',
  '{x}',
  'a/b',
];

/** The `TextIndexV1` contract (BM25 over name + aliases + text), checked on the toy SKB. */
export function runTextIndexSuite(options: TextIndexSuiteOptions): void {
  describe(`TextIndex conformance: ${options.name}`, () => {
    const skb = toySkb();
    const typeOf = new Map(skb.nodes.map((n) => [n.id, n.type]));
    let index: TextIndexV1 | TextIndexV2;
    beforeAll(async () => {
      index = await options.create(skb.nodes);
    });
    afterAll(async () => {
      await index?.close();
    });

    it('declares its specification (v1, or v2 with a document default field) and a batch size', () => {
      expect(['v1', 'v2']).toContain(index.specificationVersion);
      if (index.specificationVersion === 'v2') {
        expect(index.fields.map((f) => f.name)).toContain(index.defaultField);
        expect(index.defaultField).toBe('document');
      }
      expect(index.maxQueriesPerCall).toBeGreaterThanOrEqual(1);
    });

    it('ranks by BM25 over the documents, best first, within the limit', async () => {
      const [hits] = await index.doSearch({ queries: ['telephoto zoom lens'], limit: 3 });
      expect(
        hits!
          .slice(0, 2)
          .map((h) => h.id)
          .sort(),
      ).toEqual(['p:ef', 'p:nikkor']);
      expect(hits!.length).toBeLessThanOrEqual(3);
      const scores = hits!.map((h) => h.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      expect(scores.every((s) => s > 0)).toBe(true);
    });

    it('searches names and aliases too', async () => {
      const [byAlias, byName] = await index.doSearch({ queries: ['Leitz', 'mystery'], limit: 5 });
      expect(byAlias![0]!.id).toBe('b:leica');
      expect(byName![0]!.id).toBe('p:blank');
    });

    it('is case-insensitive and finds non-ASCII words', async () => {
      const [upper, accented] = await index.doSearch({ queries: ['NIGHT VISION', 'café'], limit: 5 });
      expect(upper![0]!.id).toBe('p:trailcam');
      expect(accented![0]!.id).toBe('p:q2');
    });

    it('prefilters by node type, returning `limit` results when they exist', async () => {
      const [hits] = await index.doSearch({
        queries: ['cameras'],
        limit: 3,
        filter: { nodeTypes: ['category'] },
      });
      expect(hits).toHaveLength(3);
      expect(hits!.every((h) => typeOf.get(h.id) === 'category')).toBe(true);
    });

    it('prefilters by an explicit id set, and by both', async () => {
      const ids = ['p:d3500', 'p:eos', 'b:nikon'];
      const [byIds] = await index.doSearch({ queries: ['DSLR'], limit: 10, filter: { ids } });
      expect(byIds!.map((h) => h.id).sort()).toEqual(['p:d3500', 'p:eos']);
      const [both] = await index.doSearch({
        queries: ['japanese nikon'],
        limit: 10,
        filter: { ids, nodeTypes: ['brand'] },
      });
      expect(both!.map((h) => h.id)).toEqual(['b:nikon']);
    });

    it('answers a batch of queries in order', async () => {
      const results = await index.doSearch({
        queries: ['night vision waterproof', 'printers', 'rangefinder'],
        limit: 1,
      });
      expect(results.map((hits) => hits[0]?.id)).toEqual(['p:trailcam', 'b:canon', 'b:leica']);
    });

    it('returns an empty list for an empty query or one with no known word', async () => {
      const [empty, unknown] = await index.doSearch({ queries: ['', 'zzzqqq'], limit: 5 });
      expect(empty).toEqual([]);
      expect(unknown).toEqual([]);
      expect(await index.doSearch({ queries: [], limit: 5 })).toEqual([]);
    });

    it.each(hostileQueries)('never throws on query syntax: %j', async (query) => {
      const [hits] = await index.doSearch({ queries: [query], limit: 5 });
      expect(Array.isArray(hits)).toBe(true);
    });

    it('still matches the words inside punctuation', async () => {
      const [hits] = await index.doSearch({ queries: ['"telephoto" (zoom) -lens*'], limit: 2 });
      expect(hits!.map((h) => h.id).sort()).toEqual(['p:ef', 'p:nikkor']);
    });

    it('answers more queries than one call takes through searchText, split in order', async () => {
      const words = [
        'telephoto zoom lens',
        'night vision',
        'rangefinder',
        'café',
        'printers',
        'DSLR',
        'zzzqqq',
        '',
        'Leitz',
      ];
      // A call with more than maxQueriesPerCall queries is the caller's fault: searchText splits.
      // Past one call's worth, capped for an index that takes thousands at once.
      const declared = Math.min(index.maxQueriesPerCall, 200);
      const queries = Array.from({ length: declared + 3 }, (_, i) => words[i % words.length]!);
      const recording = recordingTextIndex(index, { maxQueriesPerCall: declared });
      const batched = await searchText(recording.index, queries, { limit: 3 });
      expect(recording.oversized()).toEqual([]);
      const sizes = Array.from({ length: Math.ceil(queries.length / declared) }, (_, i) =>
        Math.min(declared, queries.length - i * declared),
      );
      expect(recording.calls.map((call) => call.queries.length)).toEqual(sizes);
      expect(recording.calls.flatMap((call) => call.queries)).toEqual(queries);
      const hitsOf = (hits: readonly IndexHit[] | undefined) =>
        (hits ?? []).map((h) => [h.id, Number(h.score.toFixed(6))]);
      const alone = await Promise.all(
        words.map(async (word) => hitsOf((await index.doSearch({ queries: [word], limit: 3 }))[0])),
      );
      expect(batched).toHaveLength(queries.length);
      for (const [i, hits] of batched.entries())
        expect(hitsOf(hits), `query ${i}: ${JSON.stringify(queries[i])}`).toEqual(alone[i % words.length]);
    });

    it('settles when the signal has already aborted: an abort error, or the answer', async () => {
      const controller = new AbortController();
      controller.abort();
      const abortSignal = controller.signal;
      const calls = [
        () => index.doSearch({ queries: ['telephoto zoom lens', 'night vision'], limit: 3, abortSignal }),
        () => searchText(index, ['telephoto zoom lens', 'night vision'], { limit: 3, abortSignal }),
      ];
      for (const call of calls) {
        const outcome = await call().then(
          (lists) => ({ lists }),
          (error: unknown) => ({ error }),
        );
        if ('error' in outcome) {
          expect(isAbortError(outcome.error, abortSignal), describeError(outcome.error)).toBe(true);
          continue;
        }
        expect(outcome.lists).toHaveLength(2);
        for (const hits of outcome.lists) {
          expect(hits.length).toBeLessThanOrEqual(3);
          for (const hit of hits) expect(typeof hit.id === 'string' && Number.isFinite(hit.score)).toBe(true);
        }
      }
    });
  });
}
