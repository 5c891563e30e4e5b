// Its own file (so its own process): a process must not load both Kùzu and LadybugDB.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toySkb } from '@weft/core/test';
import { writeBundle } from '@weft/skb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStore } from './build-store.ts';
import { openStore } from './open-store.ts';

describe('a store on LadybugDB (--graph ladybug)', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'weft-store-ladybug-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('is built on LadybugDB, says so in its manifest, and opens through it with its indexes', async () => {
    const bundle = join(root, 'bundle');
    await writeBundle(bundle, toySkb());
    const directory = join(root, 'store');
    const built = await buildStore({ bundle, directory, graph: 'ladybug' });
    expect(built.manifest.graph).toEqual({ provider: 'ladybug', path: 'graph' });
    expect(built.manifest.counts.nodes).toBe(toySkb().nodes.length);
    const store = await openStore(directory);
    try {
      expect(store.graph.provider).toBe('ladybug');
      expect((await store.graph.doGetNodes(['p:q2']))[0]?.name).toBe('Leica Q2');
      const hits = await store.context.text.doSearch({ queries: ['Leica'], limit: 3 });
      expect(hits[0]!.length).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  });
});
