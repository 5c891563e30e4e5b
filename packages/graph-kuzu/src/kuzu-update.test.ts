// `kuzuBackend.update` writes a changed copy of a graph: existing nodes are changed in place, new
// ones created, new edges bulk loaded, an edge that exists already is not added twice, and what a
// reader saved beside the source database stays behind.
import { existsSync } from 'node:fs';
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { toySkb } from '@weft/core/test';
import { adjacencyFileName, nameIndexFileName } from '@weft/graph-kit';
import type { SkbChangeSet } from '@weft/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kuzuBackend } from './kuzu-backend.ts';
import { KuzuGraphStore } from './kuzu-graph-store.ts';
import { temporaryGraph } from './test-graph.ts';

describe('kuzuBackend.update', () => {
  let graph: Awaited<ReturnType<typeof temporaryGraph>>;
  const skb = toySkb();
  const changes: SkbChangeSet = {
    nodes: [
      { id: 'p:d850', type: 'product', name: 'Nikon D850 II', text: 'Revised.', aliases: ['D850 Mark II'] },
      { id: 'p:z9', type: 'product', name: 'Nikon Z9', text: 'Mirrorless.', props: { year: 2021 } },
    ],
    edges: [
      // Exists already: left as it is.
      { src: 'p:d850', type: 'made_by', dst: 'b:nikon' },
      // New, between two existing nodes.
      { src: 'p:d850', type: 'compatible_with', dst: 'p:eos' },
      // New, from and to a new node; listed twice.
      { src: 'p:z9', type: 'made_by', dst: 'b:nikon' },
      { src: 'p:z9', type: 'made_by', dst: 'b:nikon' },
      { src: 'p:nikkor', type: 'compatible_with', dst: 'p:z9' },
    ],
    deleteNodes: ['p:blank', 'p:trailcam'],
    deleteEdges: [{ src: 'p:q2', type: 'in_category', dst: 'c:cameras' }],
  };
  beforeAll(async () => {
    graph = await temporaryGraph(skb);
    // Saves the adjacency and the name index beside the source database.
    await graph.store.doNeighbors({ seeds: ['p:d850'], direction: 'both' });
    await graph.store.doLookup(['Nikon']);
    await graph.store.close();
  });
  afterAll(async () => {
    await graph.dispose();
  });

  it('applies node upserts, edge upserts and deletions to a copy, leaving the source as it was', async () => {
    const result = await kuzuBackend.update!({
      location: graph.directory,
      baseDirectory: graph.root,
      directory: join(graph.root, 'v1'),
      schema: skb.schema,
      changes,
    });
    // The source's saved adjacency and name index describe the source's database: not copied.
    expect(existsSync(join(graph.directory, adjacencyFileName))).toBe(true);
    expect(existsSync(join(graph.root, 'v1', result.location, adjacencyFileName))).toBe(false);
    expect(existsSync(join(graph.root, 'v1', result.location, nameIndexFileName))).toBe(false);
    // −2 deleted, +1 new; edges: −1 (p:trailcam) −1 (deleted edge) +3 new.
    expect(result.nodes).toBe(skb.nodes.length - 1);
    expect(result.edges).toBe(skb.edges.length + 1);
    expect(result.edgesByType.made_by).toBe(7);
    const store = await KuzuGraphStore.open(join(graph.root, 'v1', result.location));
    try {
      const [d850, z9, blank] = await store.doGetNodes(['p:d850', 'p:z9', 'p:blank']);
      expect(d850).toMatchObject({ name: 'Nikon D850 II', text: 'Revised.', aliases: ['D850 Mark II'] });
      expect(z9).toMatchObject({ type: 'product', name: 'Nikon Z9', props: { year: 2021 } });
      expect(blank).toBeUndefined();
      const edges = (await store.doNeighbors({ seeds: ['p:d850', 'p:z9', 'p:q2'], direction: 'out' }))
        .map((n) => `${n.seed} ${n.edgeType} ${n.node}`)
        .sort();
      expect(edges).toEqual([
        'p:d850 compatible_with p:eos',
        'p:d850 in_category c:dslr',
        'p:d850 made_by b:nikon',
        'p:q2 made_by b:leica',
        'p:z9 made_by b:nikon',
      ]);
      expect((await store.doNeighbors({ seeds: ['p:z9'], direction: 'in' })).map((n) => n.node)).toEqual([
        'p:nikkor',
      ]);
    } finally {
      await store.close();
    }
    const source = await KuzuGraphStore.open(graph.directory);
    try {
      expect((await source.doGetNodes(['p:blank', 'p:z9'])).map((node) => node?.id)).toEqual([
        'p:blank',
        undefined,
      ]);
    } finally {
      await source.close();
    }
  });
  it('rebuilds a graph grown past twice its compact size first, answering the same', async () => {
    const grown = join(graph.root, 'grown');
    await cp(graph.directory, grown, { recursive: true });
    // As if built at one byte: any size is past twice that.
    await writeFile(join(grown, 'compact-bytes'), '1');
    const [plain, compacted] = [
      await kuzuBackend.update!({
        location: graph.directory,
        baseDirectory: graph.root,
        directory: join(graph.root, 'plain'),
        schema: skb.schema,
        changes,
      }),
      await kuzuBackend.update!({
        location: grown,
        baseDirectory: graph.root,
        directory: join(graph.root, 'compacted'),
        schema: skb.schema,
        changes,
      }),
    ];
    expect(compacted.timings).toHaveProperty('compact');
    expect(compacted.edgesByType).toEqual(plain.edgesByType);
    expect(compacted.nodesByType).toEqual(plain.nodesByType);
    expect(
      Number(await readFile(join(graph.root, 'compacted', compacted.location, 'compact-bytes'), 'utf8')),
    ).toBeGreaterThan(1);
    const answers = async (folder: string) => {
      const store = await KuzuGraphStore.open(join(graph.root, folder, 'graph'));
      try {
        const ids = [...skb.nodes.map((node) => node.id), 'p:z9'];
        return {
          nodes: await store.doGetNodes(ids),
          // In stored order: relation text keeps the first neighbours of a capped group.
          edges: (
            await store.doCypher(
              'MATCH (a:Node)-[e:Edge]->(b:Node) RETURN a.id, e.type, b.id ORDER BY offset(id(e))',
            )
          ).rows,
          meta: (await store.doCypher("MATCH (m:WeftMeta) WHERE m.key = 'schema' RETURN m.value")).rows,
        };
      } finally {
        await store.close();
      }
    };
    expect(await answers('compacted')).toEqual(await answers('plain'));
  });
});
