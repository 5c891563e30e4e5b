import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { embeddingCacheFolder } from './embedding-cache.ts';
import { assertReplaceable, recoverStoreDirectory } from './store-directory.ts';

/** A pid no process has (above Linux's pid_max): the folders named with it are a dead process's. */
const deadPid = 2 ** 30;

describe('the store directory and its embedding cache', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'weft-store-directory-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  async function segment(folder: string, name: string) {
    await mkdir(join(folder, embeddingCacheFolder), { recursive: true });
    await writeFile(join(folder, embeddingCacheFolder, name), 'segment');
  }

  it('takes a directory that holds only an embedding cache (a first ingest killed midway) as replaceable', async () => {
    const store = join(root, 'store');
    await segment(store, 'a.seg');
    expect(() => assertReplaceable(store)).not.toThrow();
    await writeFile(join(store, 'notes.txt'), 'mine');
    expect(() => assertReplaceable(store)).toThrow(/not a Weft store/);
  });

  it("puts back the cache of a dead process's staging or retired folder before removing the folder", async () => {
    const store = join(root, 'store');
    const staging = join(root, `.store.building-${deadPid}-abc`);
    await segment(staging, 'a.seg');
    await recoverStoreDirectory(store);
    expect(existsSync(staging)).toBe(false);
    expect(readdirSync(join(store, embeddingCacheFolder))).toEqual(['a.seg']);
    // With a cache in place already, the segments are merged into it.
    const retired = join(root, `.store.old-${deadPid}-def`);
    await segment(retired, 'b.seg');
    await segment(retired, 'a.seg');
    await recoverStoreDirectory(store);
    expect(existsSync(retired)).toBe(false);
    expect(readdirSync(join(store, embeddingCacheFolder)).sort()).toEqual(['a.seg', 'b.seg']);
    // A live process's staging folder is left alone.
    const live = join(root, `.store.building-${process.pid}-ghi`);
    await segment(live, 'c.seg');
    await recoverStoreDirectory(store);
    expect(existsSync(join(live, embeddingCacheFolder, 'c.seg'))).toBe(true);
  });
});
