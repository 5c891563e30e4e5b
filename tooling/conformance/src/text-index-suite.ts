import { toySkb } from '@weft/core/test';
import type { SkbNode, TextIndexV1 } from '@weft/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

export interface TextIndexSuiteOptions {
  readonly name: string;
  /** Builds an index over `nodes` (name, aliases and text). The suite closes it. */
  create(nodes: readonly SkbNode[]): Promise<TextIndexV1>;
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
    let index: TextIndexV1;
    beforeAll(async () => {
      index = await options.create(skb.nodes);
    });
    afterAll(async () => {
      await index?.close();
    });

    it('declares the v1 specification and a batch size', () => {
      expect(index.specificationVersion).toBe('v1');
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
  });
}
