import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toySkb } from '@weft/core/test';
import { kuzuBackend } from '@weft/graph-kuzu';
import { writeBundle } from '@weft/skb';
import type { GraphBackendV1 } from '@weft/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStore } from './build-store.ts';
import { parseGraphBackend, resolveGraphBackend } from './graph-backends.ts';
import { openStore } from './open-store.ts';
import { manifestFileName } from './store-directory.ts';

describe('parseGraphBackend', () => {
  it('takes ids, <id>:<target> and postgres URLs apart', () => {
    expect(parseGraphBackend('kuzu')).toEqual({ id: 'kuzu' });
    expect(parseGraphBackend(' ladybug ')).toEqual({ id: 'ladybug' });
    expect(parseGraphBackend('postgres://weft@127.0.0.1:5432/weft')).toEqual({
      id: 'postgres',
      target: 'postgres://weft@127.0.0.1:5432/weft',
    });
    expect(parseGraphBackend('postgresql://h/db')).toEqual({ id: 'postgres', target: 'postgresql://h/db' });
    expect(parseGraphBackend('mine:somewhere')).toEqual({ id: 'mine', target: 'somewhere' });
  });

  it('refuses an unknown backend id with the known ones', async () => {
    await expect(resolveGraphBackend('nope')).rejects.toMatchObject({
      code: 'WEFT_UNSUPPORTED',
      message: expect.stringContaining('kuzu'),
    });
  });
});

describe('buildStore / openStore choose the graph backend', () => {
  let root: string;
  let bundle: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'weft-store-backends-'));
    bundle = join(root, 'bundle');
    await writeBundle(bundle, toySkb());
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('builds on Kùzu by default, records the provider, and opens through it', async () => {
    const directory = join(root, 'default');
    const built = await buildStore({ bundle, directory, relationFields: false });
    expect(built.manifest.graph).toEqual({ provider: 'kuzu', path: 'graph' });
    expect(built.graph.location).toBe('graph');
    expect(built.graph.nodes).toBe(toySkb().nodes.length);
    const store = await openStore(directory);
    try {
      expect(store.graph.provider).toBe('kuzu');
      expect((await store.graph.doGetNodes(['p:q2']))[0]?.name).toBe('Leica Q2');
    } finally {
      await store.close();
    }
  });

  it('reads the provider from the manifest: a backend passed in under its id builds and opens the store', async () => {
    // The real Kùzu engine under another id, as a third-party backend would be registered.
    const renamed: GraphBackendV1 = { ...kuzuBackend, id: 'kuzu-renamed' };
    const directory = join(root, 'renamed');
    await buildStore({
      bundle,
      directory,
      relationFields: false,
      graph: 'kuzu-renamed',
      graphBackends: [renamed],
    });
    const manifest = JSON.parse(await readFile(join(directory, manifestFileName), 'utf8'));
    expect(manifest.graph.provider).toBe('kuzu-renamed');
    // Without the backend, the store names what it needs.
    await expect(openStore(directory)).rejects.toMatchObject({
      code: 'WEFT_UNSUPPORTED',
      message: expect.stringContaining("'kuzu-renamed'"),
    });
    const store = await openStore(directory, { graphBackends: [renamed] });
    try {
      expect((await store.graph.doStats()).nodes).toBe(toySkb().nodes.length);
    } finally {
      await store.close();
    }
    // A manifest naming an unknown provider is refused, not opened with the default engine.
    await writeFile(
      join(directory, manifestFileName),
      JSON.stringify({ ...manifest, graph: { provider: 'nope', path: 'graph' } }),
    );
    await expect(openStore(directory)).rejects.toMatchObject({ code: 'WEFT_UNSUPPORTED' });
  });
});
