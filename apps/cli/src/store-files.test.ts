import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { StoreManifest } from '@weft/store';
import { afterAll, describe, expect, it } from 'vitest';
import { missingStoreParts } from './store-files.ts';

const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

const manifest = (graphPath: string) =>
  ({
    graph: { provider: 'x', path: graphPath },
    indexes: { text: { path: 'indexes/text' } },
  }) as unknown as StoreManifest;

describe('missingStoreParts', () => {
  it('names a local graph folder that is gone, never a graph on a server', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'weft-store-files-'));
    dirs.push(dir);
    await mkdir(path.join(dir, 'indexes', 'text'), { recursive: true });
    expect(missingStoreParts(dir, manifest('graph'))).toEqual(['graph at graph is missing']);
    // The replicas of a PostgreSQL-backed store have no graph folder (#21 with #23's check).
    expect(missingStoreParts(dir, manifest('postgres://127.0.0.1:5432/weft?schema=wordnet'))).toEqual([]);
  });
});
