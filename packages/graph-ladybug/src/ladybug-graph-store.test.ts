import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runGraphStoreSuite } from '@weft/conformance';
import { WeftError } from '@weft/kit';
import { InMemoryGraphStore, toySkb } from '@weft/core/test';
import { expandMetapath } from '@weft/graph-kit';
import type { SkbEdge, SkbNode, SkbSchema } from '@weft/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLadybugGraph } from './build-ladybug-graph.ts';
import { ladybugBackend } from './ladybug-backend.ts';
import { LadybugGraphStore } from './ladybug-graph-store.ts';

const roots: string[] = [];
afterAll(async () => {
  await Promise.all(roots.map((root) => rm(root, { recursive: true, force: true })));
});

/** A real LadybugDB graph in a temp dir, opened read-only. */
async function temporaryGraph(skb: {
  schema: SkbSchema;
  nodes: readonly SkbNode[];
  edges: readonly SkbEdge[];
}) {
  const root = await mkdtemp(join(tmpdir(), 'weft-ladybug-'));
  roots.push(root);
  const directory = join(root, 'graph');
  const built = await buildLadybugGraph({
    directory,
    schema: skb.schema,
    nodes: skb.nodes,
    edges: skb.edges,
  });
  return { built, directory, store: await LadybugGraphStore.open(directory) };
}

runGraphStoreSuite({
  name: 'LadybugGraphStore',
  async create(skb) {
    return (await temporaryGraph(skb)).store;
  },
  cypher: {
    nameById: 'MATCH (n:Node) WHERE n.id = $id RETURN n.name',
    allIds: 'MATCH (n:Node) RETURN n.id ORDER BY n.id',
  },
});

describe('LadybugGraphStore beyond the contract', () => {
  let store: LadybugGraphStore;
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
    ({ store } = await temporaryGraph({ ...skb, nodes: [...skb.nodes, nasty] }));
  });
  afterAll(async () => {
    await store?.close();
  });

  it('is the ladybug provider, in graph.lbug', () => {
    expect(store.provider).toBe('ladybug');
    expect(store.path.endsWith('graph.lbug')).toBe(true);
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
  });

  it('times out long Cypher with WEFT_TIMEOUT and stays usable', async () => {
    const slow =
      "MATCH (a:Node), (b:Node), (c:Node), (d:Node), (e:Node), (f:Node) WHERE a.name + b.name + c.name + d.name + e.name + f.name = 'x' RETURN count(*)";
    await expect(store.doCypher(slow, { timeoutMs: 50 })).rejects.toSatisfy((e) =>
      WeftError.is(e, 'WEFT_TIMEOUT'),
    );
    const ok = await store.doCypher('MATCH (n:Node) RETURN count(*) AS c');
    expect(ok.rows[0]![0]).toBe(16);
  });

  it('refuses writing and invalid Cypher, and empty list params', async () => {
    await expect(store.doCypher("CREATE (:Node {id: 'x'})")).rejects.toSatisfy((e) =>
      WeftError.is(e, 'WEFT_WRITE_REJECTED'),
    );
    await expect(
      store.doCypher('MATCH (n:Node) WHERE n.id IN $ids RETURN n.id', { params: { ids: [] } }),
    ).rejects.toSatisfy((e) => WeftError.is(e, 'WEFT_BAD_INPUT'));
    await expect(store.doCypher('MATCH (n:Nope) RETURN n')).rejects.toSatisfy((e) =>
      WeftError.is(e, 'WEFT_BAD_INPUT'),
    );
  });

  it('gives the same stats as the reference store, and serves concurrent calls', async () => {
    const reference = new InMemoryGraphStore(toySkb());
    const stats = await store.doStats();
    const expected = await reference.doStats();
    expect(stats.edges).toBe(expected.edges);
    expect(stats.edgesByType).toEqual(expected.edgesByType);
    const calls = Array.from({ length: 20 }, (_, i) =>
      i % 2 ? store.doNeighbors({ seeds: ['b:nikon'], direction: 'in' }) : store.doGetNodes(['p:q2']),
    );
    expect((await Promise.all(calls)).every((r) => r.length > 0)).toBe(true);
  });
});

describe('ladybugBackend', () => {
  it('builds <store>/graph and opens it by its location', async () => {
    const root = await mkdtemp(join(tmpdir(), 'weft-ladybug-backend-'));
    roots.push(root);
    const skb = toySkb();
    const built = await ladybugBackend.build({
      directory: root,
      schema: skb.schema,
      nodes: skb.nodes,
      edges: skb.edges,
    });
    expect(built).toMatchObject({ location: 'graph', nodes: skb.nodes.length, edges: skb.edges.length });
    const store = await ladybugBackend.open(built.location, { baseDirectory: root });
    try {
      expect(store.provider).toBe('ladybug');
      expect((await store.doLookup(['Leica Q2']))[0]![0]).toMatchObject({ id: 'p:q2', match: 'exact' });
    } finally {
      await store.close();
    }
  });
});
