import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileArtifactStore } from './file-artifact-store.ts';

describe('FileArtifactStore', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  it('round-trips JSON, replaces on put, and returns undefined for missing names', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'weft-artifacts-'));
    dirs.push(dir);
    const store = new FileArtifactStore(join(dir, 'artifacts'));
    expect(await store.get('reranker')).toBeUndefined();
    await store.put('reranker', { weights: [1, 2] });
    await store.put('reranker', { weights: [3] });
    expect(await store.get('reranker')).toEqual({ weights: [3] });
    expect(await readdir(join(dir, 'artifacts'))).toEqual(['reranker.json']);
  });

  it('rejects names that would escape the folder', async () => {
    const store = new FileArtifactStore(tmpdir());
    await expect(store.put('../evil', 1)).rejects.toMatchObject({ code: 'WEFT_BAD_INPUT' });
  });
});
