// The adjacency and the name index a store builds on first use are saved beside the database and
// read back by the next open while the database file is unchanged; a changed one is scanned again.
import { existsSync } from 'node:fs';
import { readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { toySkb } from '@weft/core/test';
import { adjacencyFileName, nameIndexFileName } from '@weft/graph-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KuzuGraphStore } from './kuzu-graph-store.ts';
import { temporaryGraph } from './test-graph.ts';

describe('saved adjacency and name index of a Kùzu store', () => {
  let graph: Awaited<ReturnType<typeof temporaryGraph>>;
  const skb = toySkb();
  const seeds = skb.nodes.slice(0, 5).map((node) => node.id);
  const names = [skb.nodes[0]!.name, skb.nodes[1]!.name.slice(0, -1), 'nothing like it'];
  let expected: { neighbors: unknown; lookups: unknown };
  beforeAll(async () => {
    graph = await temporaryGraph(skb);
    expected = {
      neighbors: await graph.store.doNeighbors({ seeds, direction: 'both' }),
      lookups: await graph.store.doLookup(names, { limit: 5 }),
    };
    await graph.store.close();
  });
  afterAll(async () => {
    await graph.dispose();
  });

  const answers = async (store: KuzuGraphStore) => ({
    neighbors: await store.doNeighbors({ seeds, direction: 'both' }),
    lookups: await store.doLookup(names, { limit: 5 }),
  });

  it('writes both files on first use and answers from them in the next process', async () => {
    expect(existsSync(join(graph.directory, adjacencyFileName))).toBe(true);
    expect(existsSync(join(graph.directory, nameIndexFileName))).toBe(true);
    const store = await KuzuGraphStore.open(graph.directory);
    try {
      expect(await answers(store)).toEqual(expected);
      expect(store.adjacencyInfo?.source).toBe('file');
    } finally {
      await store.close();
    }
  });

  it('scans the database again once its file changed', async () => {
    const later = new Date(Date.now() + 60_000);
    await utimes(graph.store.path, later, later);
    const store = await KuzuGraphStore.open(graph.directory);
    try {
      expect(await answers(store)).toEqual(expected);
      expect(store.adjacencyInfo?.source).toBe('engine');
    } finally {
      await store.close();
    }
    const reopened = await KuzuGraphStore.open(graph.directory);
    try {
      expect(await answers(reopened)).toEqual(expected);
      expect(reopened.adjacencyInfo?.source).toBe('file');
    } finally {
      await reopened.close();
    }
  });

  it('rebuilds and re-saves files of the first format or corrupted ones', async () => {
    const adjacency = join(graph.directory, adjacencyFileName);
    const names = join(graph.directory, nameIndexFileName);
    const magic = async (file: string) => (await readFile(file)).toString('latin1', 0, 8);
    expect(await magic(adjacency)).toBe('WEFTCSR2');
    expect(await magic(names)).toBe('WEFTNAM2');
    for (const damage of ['first format', 'truncated'] as const) {
      for (const [file, old] of [
        [adjacency, 'WEFTCSR1'],
        [names, 'WEFTNAM1'],
      ] as const) {
        const bytes = await readFile(file);
        await writeFile(
          file,
          damage === 'first format'
            ? Buffer.concat([Buffer.from(old), bytes.subarray(8)])
            : bytes.subarray(0, bytes.length >> 1),
        );
      }
      const store = await KuzuGraphStore.open(graph.directory);
      try {
        expect(await answers(store), damage).toEqual(expected);
        expect(store.adjacencyInfo?.source, damage).toBe('engine');
      } finally {
        await store.close();
      }
      expect(await magic(adjacency), damage).toBe('WEFTCSR2');
      expect(await magic(names), damage).toBe('WEFTNAM2');
      const reopened = await KuzuGraphStore.open(graph.directory);
      try {
        expect(await answers(reopened), damage).toEqual(expected);
        expect(reopened.adjacencyInfo?.source, damage).toBe('file');
      } finally {
        await reopened.close();
      }
    }
  });
});
