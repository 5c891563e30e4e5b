import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.ts';
import { captureIo } from '../testing/capture-io.ts';
import { infoCommand } from './info.ts';
import { createQueryCommand } from './query.ts';

const manifest = {
  formatVersion: 1,
  createdAt: '2026-01-01T00:00:00.000Z',
  bundle: { path: '/bundles/toy', name: 'toy' },
  schema: { name: 'toy', nodeTypes: [{ name: 'product' }], edgeTypes: [] },
  counts: { nodes: 1, edges: 0, nodesByType: { product: 1 }, edgesByType: {} },
  graph: { provider: 'kuzu', path: 'graph' },
};

describe('weft info and a damaged store', () => {
  let db: string;
  beforeEach(async () => {
    db = await mkdtemp(path.join(os.tmpdir(), 'weft-info-'));
    await mkdir(path.join(db, 'graph'));
    await writeFile(path.join(db, 'store.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  });
  afterEach(async () => {
    await rm(db, { recursive: true, force: true });
  });

  it('describes a whole store with exit 0', async () => {
    const c = captureIo();
    expect(await runCli(['info', '--db', db], c.io, [infoCommand])).toBe(0);
    expect(c.out()).toContain('graph: kuzu at graph: 1 nodes');
    expect(c.out()).not.toContain('BROKEN');
  });

  it('shows the store version, 0 for a store as weft ingest built it, in text and in --json', async () => {
    const c = captureIo();
    expect(await runCli(['info', '--db', db], c.io, [infoCommand])).toBe(0);
    expect(c.out()).toContain('  version: 0 (as weft ingest built it)');
    const j = captureIo();
    expect(await runCli(['info', '--db', db, '--json'], j.io, [infoCommand])).toBe(0);
    const info = JSON.parse(j.out());
    expect(info).toMatchObject({ storeVersion: 0, changedRecords: 0 });
    expect(info.updatedAt).toBeUndefined();
  });

  it('shows the version an update committed, with when and how many records changed', async () => {
    const updated = {
      ...manifest,
      storeVersion: 3,
      updatedAt: '2026-02-01T00:00:00.000Z',
      changedRecords: 1234,
      graph: { provider: 'kuzu', path: 'versions/v3/graph' },
    };
    await mkdir(path.join(db, 'versions', 'v3', 'graph'), { recursive: true });
    await writeFile(path.join(db, 'store.json'), `${JSON.stringify(updated, null, 2)}\n`);
    const c = captureIo();
    expect(await runCli(['info', '--db', db], c.io, [infoCommand])).toBe(0);
    expect(c.out()).toContain(
      '  version: 3 (3 update(s) since the build changed 1,234 records, the last at 2026-02-01T00:00:00.000Z)',
    );
    const j = captureIo();
    expect(await runCli(['info', '--db', db, '--json'], j.io, [infoCommand])).toBe(0);
    expect(JSON.parse(j.out())).toMatchObject({
      storeVersion: 3,
      updatedAt: '2026-02-01T00:00:00.000Z',
      changedRecords: 1234,
      broken: false,
    });
  });

  it('reports a store whose graph/ is gone as broken (exit 2), in text and in --json', async () => {
    await rm(path.join(db, 'graph'), { recursive: true });
    const c = captureIo();
    expect(await runCli(['info', '--db', db], c.io, [infoCommand])).toBe(2);
    expect(c.out()).toContain('BROKEN: graph at graph is missing');
    expect(c.err()).toContain(`${db} is a broken store: graph at graph is missing`);
    const j = captureIo();
    expect(await runCli(['info', '--db', db, '--json'], j.io, [infoCommand])).toBe(2);
    expect(JSON.parse(j.out())).toMatchObject({ broken: true, missing: ['graph at graph is missing'] });
  });

  it('a store.json that is not JSON is bad input (exit 2) named with its line and column', async () => {
    await writeFile(path.join(db, 'store.json'), '{\n  "formatVersion": 1,\n  oops\n}\n');
    const c = captureIo();
    expect(await runCli(['info', '--db', db], c.io, [infoCommand])).toBe(2);
    expect(c.err()).toContain(`${path.join(db, 'store.json')}:3:3: the store's manifest is not JSON`);
    const q = captureIo();
    expect(await runCli(['query', 'cats', '--db', db, '--json'], q.io, [createQueryCommand()])).toBe(2);
    expect(JSON.parse(q.out()).error.code).toBe('WEFT_BAD_INPUT');
    expect(q.err()).toContain(`${path.join(db, 'store.json')}:3:3:`);
  });

  it('weft query on a store whose graph/ is gone exits 2 and says to rebuild it', async () => {
    await rm(path.join(db, 'graph'), { recursive: true });
    const c = captureIo();
    expect(await runCli(['query', 'cats', '--db', db], c.io, [createQueryCommand()])).toBe(2);
    expect(c.err()).toContain('is a broken store: graph at graph is missing; rebuild it with weft ingest');
  });
});
