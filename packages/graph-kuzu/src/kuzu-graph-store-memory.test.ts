import type { GraphNeighbor, SkbEdge, SkbNode, SkbSchema } from '@weft/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KuzuGraphStore } from './kuzu-graph-store.ts';
import { temporaryGraph } from './test-graph.ts';

// A generated graph big enough for the batched node fetch (> 256 ids) and varied degrees.
const schema: SkbSchema = {
  name: 'generated',
  version: 1,
  nodeTypes: [{ name: 'a' }, { name: 'b' }],
  edgeTypes: [
    { name: 'x', from: 'a', to: 'b' },
    { name: 'y', from: 'b', to: 'a' },
  ],
} as SkbSchema;
const nodes: SkbNode[] = Array.from({ length: 400 }, (_, i) => ({
  id: `n${(i * 37) % 400}`,
  type: i % 3 === 0 ? 'a' : 'b',
  name: `node ${i}`,
  text: `text ${i}`,
}));
const edges: SkbEdge[] = [];
for (let i = 0; i < 400; i++)
  for (let k = 1; k <= i % 5; k++)
    edges.push({ src: `n${i}`, dst: `n${(i * k + 11) % 400}`, type: k % 2 ? 'x' : 'y' });

const key = (n: GraphNeighbor) => `${n.seed} ${n.direction} ${n.edgeType} ${n.node} ${n.nodeType}`;

describe('KuzuGraphStore in-memory adjacency and node fetch', () => {
  let store: KuzuGraphStore;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    ({ store, dispose } = await temporaryGraph({ schema, nodes, edges }));
  });
  afterAll(async () => {
    await dispose();
  });

  it('expands exactly like the equivalent Kùzu query, in both directions and with filters', async () => {
    const seeds = ['n0', 'n7', 'n44', 'n399', 'nope', 'n7'];
    const fromKuzu = async (direction: 'out' | 'in', edgeType: string) => {
      const pattern = direction === 'out' ? '(s:Node)-[e:Edge]->(n:Node)' : '(s:Node)<-[e:Edge]-(n:Node)';
      const { rows } = await store.doCypher(
        `MATCH ${pattern} WHERE s.id IN $seeds AND e.type = $t RETURN s.id, n.id, n.type, e.type`,
        { params: { seeds, t: edgeType } },
      );
      return rows.map((r) => `${r[0]} ${direction} ${r[3]} ${r[1]} ${r[2]}`);
    };
    const expected = [...(await fromKuzu('out', 'x')), ...(await fromKuzu('in', 'x'))].sort();
    expect(expected.length).toBeGreaterThan(3);
    const both = await store.doNeighbors({ seeds, edgeTypes: ['x'], direction: 'both' });
    expect(both.map(key).sort()).toEqual(expected);
    // Per seed, neighbours come ordered by node id, so a limit keeps the smallest ids.
    const limited = await store.doNeighbors({ seeds, edgeTypes: ['x'], direction: 'both', limitPerSeed: 1 });
    for (const seed of new Set(both.map((n) => n.seed))) {
      const smallest = both
        .filter((n) => n.seed === seed)
        .map((n) => n.node)
        .sort()[0];
      expect(limited.filter((n) => n.seed === seed).map((n) => n.node)).toEqual([smallest]);
    }
    const typed = await store.doNeighbors({ seeds, direction: 'out', nodeTypes: ['a'] });
    expect(typed.every((n) => n.nodeType === 'a')).toBe(true);
    expect(await store.doNeighbors({ seeds, direction: 'out', edgeTypes: ['unknown'] })).toEqual([]);
    const info = store.adjacencyInfo;
    expect(info?.nodes).toBe(400);
    expect(info?.edges).toBe(edges.length);
  });

  it('fetches many nodes in request order, by key or in one batch, and caches them', async () => {
    const ids = Array.from({ length: 300 }, (_, i) => `n${(i * 7) % 400}`);
    const wanted = ['n5', 'missing', ...ids, 'n5'];
    const got = await store.doGetNodes(wanted);
    expect(got.map((n) => n?.id)).toEqual(wanted.map((id) => (id === 'missing' ? undefined : id)));
    const byId = new Map(nodes.map((n) => [n.id, n]));
    expect(got[2]).toEqual(byId.get(ids[0]!));
    // Few ids go through the primary-key path; results agree with the batch path.
    const few = await store.doGetNodes(['n3', 'n1', 'nope']);
    expect(few).toEqual([byId.get('n3'), byId.get('n1'), undefined]);
  });

  it('loads the adjacency at open when asked', async () => {
    const eager = await KuzuGraphStore.open(store.path, { adjacency: 'open', nodeCacheSize: 0 });
    try {
      expect(eager.adjacencyInfo?.edges).toBe(edges.length);
      expect((await eager.doGetNodes(['n9']))[0]?.name).toBe(nodes.find((n) => n.id === 'n9')?.name);
    } finally {
      await eager.close();
    }
  });
});
