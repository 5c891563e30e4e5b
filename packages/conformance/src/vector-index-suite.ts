import { seededRandom } from '@weft/kit';
import { toySkb, type VectorRecord } from '@weft/core/test';
import type { VectorIndexV1 } from '@weft/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

export interface VectorIndexSuiteOptions {
  readonly name: string;
  /** Builds an index over `records` of `dimensions` made by `embedderId`. The suite closes it. */
  create(options: {
    records: readonly VectorRecord[];
    dimensions: number;
    embedderId: string;
  }): Promise<VectorIndexV1>;
}

/** Deterministic pseudo-random unit-ish vectors (mulberry32), one per toy node. */
export function toyVectors(dimensions: number, seed = 7): VectorRecord[] {
  const next = seededRandom(seed);
  const random = () => next() - 0.5;
  return toySkb().nodes.map((node) => ({
    id: node.id,
    type: node.type,
    vector: Array.from({ length: dimensions }, random),
  }));
}

/** The `VectorIndexV1` contract (cosine similarity, prefilters), checked on toy vectors. */
export function runVectorIndexSuite(options: VectorIndexSuiteOptions): void {
  describe(`VectorIndex conformance: ${options.name}`, () => {
    const dimensions = 16;
    const records = toyVectors(dimensions);
    const typeOf = new Map(records.map((r) => [r.id, r.type]));
    let index: VectorIndexV1;
    beforeAll(async () => {
      index = await options.create({ records, dimensions, embedderId: 'test:toy-16' });
    });
    afterAll(async () => {
      await index?.close();
    });

    it('declares the specification, dimensions and embedder', () => {
      expect(index.specificationVersion).toBe('v1');
      expect(index.dimensions).toBe(dimensions);
      expect(index.embedderId).toBe('test:toy-16');
    });

    it('finds a stored vector first, with cosine similarity ≈ 1, scale-invariant', async () => {
      const target = records[7]!;
      const [hits] = await index.doSearch({ vectors: [target.vector.map((x) => x * 3)], limit: 5 });
      expect(hits![0]!.id).toBe(target.id);
      expect(hits![0]!.score).toBeCloseTo(1, 4);
      const scores = hits!.map((h) => h.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      expect(scores.every((s) => s <= 1.0001 && s >= -1.0001)).toBe(true);
      expect(hits).toHaveLength(5);
    });

    it('answers a batch in order', async () => {
      const results = await index.doSearch({ vectors: records.slice(0, 4).map((r) => r.vector), limit: 1 });
      expect(results.map((hits) => hits[0]!.id)).toEqual(records.slice(0, 4).map((r) => r.id));
    });

    it('prefilters by node type and by ids, returning `limit` results when they exist', async () => {
      const query = records[0]!.vector;
      const [brands] = await index.doSearch({ vectors: [query], limit: 3, filter: { nodeTypes: ['brand'] } });
      expect(brands).toHaveLength(3);
      expect(brands!.every((h) => typeOf.get(h.id) === 'brand')).toBe(true);
      const ids = ['p:q2', 'c:lenses', 'b:canon'];
      const [byIds] = await index.doSearch({ vectors: [query], limit: 10, filter: { ids } });
      expect(byIds!.map((h) => h.id).sort()).toEqual([...ids].sort());
      const [both] = await index.doSearch({
        vectors: [query],
        limit: 10,
        filter: { ids, nodeTypes: ['product'] },
      });
      expect(both!.map((h) => h.id)).toEqual(['p:q2']);
    });

    it('agrees with exact cosine ranking', async () => {
      const query = records[3]!.vector.map((x, i) => x + (records[9]!.vector[i] ?? 0));
      const cosine = (a: readonly number[], b: readonly number[]) => {
        let dot = 0;
        let na = 0;
        let nb = 0;
        for (let i = 0; i < a.length; i++) {
          dot += a[i]! * b[i]!;
          na += a[i]! ** 2;
          nb += b[i]! ** 2;
        }
        return dot / Math.sqrt(na * nb);
      };
      const exact = [...records]
        .sort((a, b) => cosine(query, b.vector) - cosine(query, a.vector))
        .slice(0, 3);
      const [hits] = await index.doSearch({ vectors: [query], limit: 3 });
      expect(hits!.map((h) => h.id)).toEqual(exact.map((r) => r.id));
      hits!.forEach((hit, i) => {
        expect(hit.score).toBeCloseTo(cosine(query, exact[i]!.vector), 3);
      });
    });

    it('rejects a vector of the wrong dimension', async () => {
      await expect(index.doSearch({ vectors: [[1, 2, 3]], limit: 1 })).rejects.toMatchObject({
        code: 'WEFT_BAD_INPUT',
      });
    });
  });
}
