import { link, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { directoryBytes } from './store-info.ts';

describe('directoryBytes', () => {
  let folder = '';
  afterEach(() => rm(folder, { recursive: true, force: true }));

  it('counts a hard-linked file once (by inode), and every distinct file', async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'weft-store-bytes-'));
    await mkdir(path.join(folder, 'v1'));
    await mkdir(path.join(folder, 'v2'));
    await writeFile(path.join(folder, 'v1', 'data.bin'), Buffer.alloc(1000));
    // An update links an unchanged file into the new version rather than copying it.
    await link(path.join(folder, 'v1', 'data.bin'), path.join(folder, 'v2', 'data.bin'));
    await writeFile(path.join(folder, 'v2', 'changed.bin'), Buffer.alloc(300));
    expect(await directoryBytes(folder)).toBe(1300);
  });
});
