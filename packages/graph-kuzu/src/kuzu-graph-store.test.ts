import { rm } from 'node:fs/promises';
import { runGraphStoreSuite } from '@weft/conformance';
import { WeftError } from '@weft/kit';
import { expandMetapath } from '@weft/graph-kit';
import { toySkb } from '@weft/core/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KuzuGraphStore } from './kuzu-graph-store.ts';
import { temporaryGraph } from './test-graph.ts';

const roots: string[] = [];
afterAll(async () => {
  await Promise.all(roots.map((root) => rm(root, { recursive: true, force: true })));
});

runGraphStoreSuite({
  name: 'KuzuGraphStore',
  async create(skb) {
    const graph = await temporaryGraph(skb);
    roots.push(graph.root);
    return graph.store;
  },
  cypher: {
    nameById: 'MATCH (n:Node) WHERE n.id = $id RETURN n.name',
    allIds: 'MATCH (n:Node) RETURN n.id ORDER BY n.id',
  },
});

describe('KuzuGraphStore beyond the contract', () => {
  let store: KuzuGraphStore;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    const skb = toySkb();
    const nasty = {
      id: 'x:nasty',
      type: 'brand',
      name: 'Nasty, "quoted"',
      aliases: ['a,b', 'c "d"'],
      text: 'line1\nline2, "q" \\ back\r\nline3',
      props: { rank: 3, ok: true, tag: 'x' },
    };
    ({ store, dispose } = await temporaryGraph({ ...skb, nodes: [...skb.nodes, nasty] }));
  });
  afterAll(async () => {
    await dispose();
  });

  it('round-trips quotes, commas, line breaks, backslashes and props through COPY', async () => {
    const [node] = await store.doGetNodes(['x:nasty']);
    expect(node).toEqual({
      id: 'x:nasty',
      type: 'brand',
      name: 'Nasty, "quoted"',
      aliases: ['a,b', 'c "d"'],
      text: 'line1\nline2, "q" \\ back\r\nline3',
      props: { rank: 3, ok: true, tag: 'x' },
    });
  });

  it('expands metapaths hop by hop in batch', async () => {
    // lens → compatible body → its brand
    const paths = await expandMetapath(store, {
      seeds: ['p:nikkor', 'p:ef'],
      steps: [
        { edgeTypes: ['compatible_with'], direction: 'out' },
        { edgeTypes: ['made_by'], direction: 'out', nodeTypes: ['brand'] },
      ],
    });
    expect(paths.map((p) => `${p.seed}>${p.hops.map((h) => h.node).join('>')}`).sort()).toEqual([
      'p:ef>p:eos>b:canon',
      'p:nikkor>p:d3500>b:nikon',
      'p:nikkor>p:d850>b:nikon',
    ]);
    // Simple paths: going out and back in never returns to the seed.
    const back = await expandMetapath(store, {
      seeds: ['p:d850'],
      steps: [
        { edgeTypes: ['made_by'], direction: 'out' },
        { edgeTypes: ['made_by'], direction: 'in' },
      ],
    });
    expect(back.map((p) => p.node).sort()).toEqual(['p:d3500', 'p:nikkor']);
  });

  it('times out long Cypher with WEFT_TIMEOUT', async () => {
    // 16^6 string concatenations: seconds of work that no optimiser shortcut removes.
    const slow =
      "MATCH (a:Node), (b:Node), (c:Node), (d:Node), (e:Node), (f:Node) WHERE a.name + b.name + c.name + d.name + e.name + f.name = 'x' RETURN count(*)";
    await expect(store.doCypher(slow, { timeoutMs: 50 })).rejects.toSatisfy((e) =>
      WeftError.is(e, 'WEFT_TIMEOUT'),
    );
    // The connection is usable afterwards, without the timeout.
    const ok = await store.doCypher('MATCH (n:Node) RETURN count(*) AS c');
    expect(ok.columns).toEqual(['c']);
    expect(ok.rows[0]![0]).toBe(16);
  });

  it('refuses empty list params (they crash Kùzu) and reports bad Cypher as bad input', async () => {
    await expect(
      store.doCypher('MATCH (n:Node) WHERE n.id IN $ids RETURN n.id', { params: { ids: [] } }),
    ).rejects.toSatisfy((e) => WeftError.is(e, 'WEFT_BAD_INPUT'));
    const some = await store.doCypher('MATCH (n:Node) WHERE n.id IN $ids RETURN n.id ORDER BY n.id', {
      params: { ids: ['b:nikon', 'p:q2'] },
    });
    expect(some.rows).toEqual([['b:nikon'], ['p:q2']]);
    await expect(store.doCypher('MATCH (n:Node RETURN n')).rejects.toSatisfy((e) =>
      WeftError.is(e, 'WEFT_BAD_INPUT'),
    );
    await expect(store.doCypher('MATCH (n:Nope) RETURN n')).rejects.toSatisfy((e) =>
      WeftError.is(e, 'WEFT_BAD_INPUT'),
    );
  });

  it('serves concurrent calls through its connection pool', async () => {
    const calls = Array.from({ length: 20 }, (_, i) =>
      i % 2 ? store.doNeighbors({ seeds: ['b:nikon'], direction: 'in' }) : store.doGetNodes(['p:q2']),
    );
    const results = await Promise.all(calls);
    expect(results.every((r) => r.length > 0)).toBe(true);
  });
});
