import { WeftError } from '@weft/kit';
import { type InMemorySkb, toySkb } from '@weft/core/test';
import type { GraphNeighbor, GraphStoreV1 } from '@weft/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

export interface GraphStoreSuiteOptions {
  /** Shown in test names. */
  readonly name: string;
  /** Builds a store holding `skb`. The suite closes what it creates. */
  create(skb: InMemorySkb): Promise<GraphStoreV1>;
  /**
   * Cypher for this backend's mapping of the SKB, when it supports Cypher:
   * `nameById` takes `$id` and returns one row with the node's name; `allIds` returns every node id.
   */
  readonly cypher?: { readonly nameById: string; readonly allIds: string };
}

const key = (n: GraphNeighbor) => `${n.seed} ${n.direction} ${n.edgeType} ${n.node}`;

/** The `GraphStoreV1` contract, checked on the toy camera-shop SKB. */
export function runGraphStoreSuite(options: GraphStoreSuiteOptions): void {
  describe(`GraphStore conformance: ${options.name}`, () => {
    const skb = toySkb();
    let store: GraphStoreV1;
    beforeAll(async () => {
      store = await options.create(skb);
    });
    afterAll(async () => {
      await store?.close();
    });

    it('declares the v1 specification', () => {
      expect(store.specificationVersion).toBe('v1');
      expect(typeof store.provider).toBe('string');
    });

    it('returns the schema it was built from', async () => {
      const schema = await store.doGetSchema();
      expect(schema.name).toBe(skb.schema.name);
      expect(schema.nodeTypes.map((t) => t.name).sort()).toEqual(
        skb.schema.nodeTypes.map((t) => t.name).sort(),
      );
      expect(schema.edgeTypes.map((t) => `${t.name}:${t.from}:${t.to}`).sort()).toEqual(
        skb.schema.edgeTypes.map((t) => `${t.name}:${t.from}:${t.to}`).sort(),
      );
      expect(schema.targetTypes).toEqual(skb.schema.targetTypes);
    });

    it('gets nodes by id in request order, undefined for unknown ids', async () => {
      const nodes = await store.doGetNodes(['p:q2', 'nope', 'b:leica', 'p:q2', 'p:blank']);
      expect(nodes.map((n) => n?.id)).toEqual(['p:q2', undefined, 'b:leica', 'p:q2', 'p:blank']);
      expect(nodes[0]).toMatchObject({ type: 'product', name: 'Leica Q2' });
      expect(nodes[0]!.text).toContain('café');
      expect(nodes[2]!.aliases).toEqual(['Leitz']);
      expect(nodes[4]!.text).toBe('');
      expect(await store.doGetNodes([])).toEqual([]);
    });

    it('expands outgoing edges of one type from many seeds in one call', async () => {
      const out = await store.doNeighbors({
        seeds: ['p:nikkor', 'p:ef', 'p:d850'],
        edgeTypes: ['compatible_with'],
        direction: 'out',
      });
      expect(out.map(key).sort()).toEqual(
        [
          'p:ef out compatible_with p:eos',
          'p:nikkor out compatible_with p:d3500',
          'p:nikkor out compatible_with p:d850',
        ].sort(),
      );
      expect(out.every((n) => n.nodeType === 'product')).toBe(true);
    });

    it('follows edges backwards and both ways, and says which', async () => {
      const incoming = await store.doNeighbors({
        seeds: ['b:nikon'],
        edgeTypes: ['made_by'],
        direction: 'in',
      });
      expect(incoming.map((n) => n.node).sort()).toEqual(['p:d3500', 'p:d850', 'p:nikkor']);
      expect(incoming.every((n) => n.direction === 'in' && n.edgeType === 'made_by')).toBe(true);
      const both = await store.doNeighbors({ seeds: ['p:d850'], direction: 'both' });
      expect(both.map(key).sort()).toEqual(
        [
          'p:d850 out made_by b:nikon',
          'p:d850 out in_category c:dslr',
          'p:d850 in compatible_with p:nikkor',
        ].sort(),
      );
    });

    it('filters by edge types and by neighbour node types', async () => {
      const all = await store.doNeighbors({ seeds: ['p:nikkor'], direction: 'out' });
      expect(new Set(all.map((n) => n.edgeType))).toEqual(
        new Set(['made_by', 'in_category', 'compatible_with']),
      );
      const brands = await store.doNeighbors({
        seeds: ['p:nikkor', 'p:eos'],
        direction: 'out',
        nodeTypes: ['brand'],
      });
      expect(brands.map(key).sort()).toEqual(['p:eos out made_by b:canon', 'p:nikkor out made_by b:nikon']);
      const none = await store.doNeighbors({
        seeds: ['p:nikkor'],
        direction: 'out',
        edgeTypes: ['subcategory_of'],
      });
      expect(none).toEqual([]);
    });

    it('limits neighbours per seed, deterministically', async () => {
      const options = {
        seeds: ['b:nikon', 'b:canon'],
        edgeTypes: ['made_by'],
        direction: 'in' as const,
        limitPerSeed: 1,
      };
      const first = await store.doNeighbors(options);
      expect(first.filter((n) => n.seed === 'b:nikon')).toHaveLength(1);
      expect(first.filter((n) => n.seed === 'b:canon')).toHaveLength(1);
      const second = await store.doNeighbors(options);
      expect(second.map(key).sort()).toEqual(first.map(key).sort());
    });

    it('returns nothing for unknown or no seeds', async () => {
      expect(await store.doNeighbors({ seeds: [], direction: 'both' })).toEqual([]);
      expect(await store.doNeighbors({ seeds: ['nope'], direction: 'both' })).toEqual([]);
    });

    it('looks names up exactly, by alias, case-insensitively and fuzzily, in batch order', async () => {
      const [exact, alias, lower, fuzzy, empty] = await store.doLookup([
        'Nikon',
        'Leitz',
        'nikon d850',
        'Nikn D850',
        '',
      ]);
      expect(exact![0]).toMatchObject({ id: 'b:nikon', match: 'exact', score: 1 });
      expect(alias![0]).toMatchObject({ id: 'b:leica', match: 'alias' });
      expect(lower![0]).toMatchObject({ id: 'p:d850', match: 'case-insensitive' });
      expect(fuzzy![0]).toMatchObject({ id: 'p:d850', match: 'fuzzy' });
      expect(fuzzy![0]!.score).toBeLessThan(lower![0]!.score);
      expect(empty).toEqual([]);
      for (const list of [exact!, alias!, lower!, fuzzy!]) {
        const scores = list.map((m) => m.score);
        expect(scores).toEqual([...scores].sort((a, b) => b - a));
      }
    });

    it('restricts lookups to node types and honours the limit', async () => {
      const [typed] = await store.doLookup(['Nikon'], { nodeTypes: ['product'], fuzzy: true, limit: 2 });
      expect(typed!.length).toBeLessThanOrEqual(2);
      expect(typed!.every((m) => m.type === 'product')).toBe(true);
      const [strict] = await store.doLookup(['Nikn D850'], { fuzzy: false });
      expect(strict).toEqual([]);
    });

    it('reports counts per type', async () => {
      const stats = await store.doStats();
      expect(stats.nodes).toBe(skb.nodes.length);
      expect(stats.edges).toBe(skb.edges.length);
      expect(stats.nodesByType).toEqual({ brand: 3, category: 4, product: 8 });
      expect(stats.edgesByType).toEqual({
        made_by: 6,
        in_category: 7,
        compatible_with: 3,
        subcategory_of: 2,
      });
      expect(stats.degree.max).toBe(4);
    });

    const cypher = options.cypher;
    if (cypher) {
      it('runs parameterised read-only Cypher and caps rows', async () => {
        expect(store.supportsCypher).toBe(true);
        const byId = await store.doCypher(cypher.nameById, { params: { id: 'p:d850' } });
        expect(byId.rows).toEqual([['Nikon D850']]);
        expect(byId.truncated).toBe(false);
        const capped = await store.doCypher(cypher.allIds, { maxRows: 3 });
        expect(capped.rows).toHaveLength(3);
        expect(capped.truncated).toBe(true);
      });

      it.each([
        "CREATE (n:Node {id: 'x'})",
        'MATCH (n) DETACH DELETE n',
        "MATCH (n) SET n.name = 'x'",
        "MERGE (n:Node {id: 'x'})",
        'DROP TABLE Node',
        "COPY Node FROM 'x.csv'",
        'match (n) delete n',
      ])('rejects writing Cypher before running it: %s', async (query) => {
        await expect(store.doCypher(query)).rejects.toSatisfy((error) =>
          WeftError.is(error, 'WEFT_WRITE_REJECTED'),
        );
        expect((await store.doStats()).nodes).toBe(skb.nodes.length);
      });
    } else {
      it('says it has no Cypher and refuses it with a typed error', async () => {
        expect(store.supportsCypher).toBe(false);
        await expect(store.doCypher('MATCH (n) RETURN n')).rejects.toSatisfy((error) => WeftError.is(error));
      });
    }
  });
}
