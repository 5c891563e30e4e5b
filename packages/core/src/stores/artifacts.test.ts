import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { artifactEnvelope, artifactName, loadArtifact } from './artifacts.ts';
import { FileArtifactStore } from './file-artifact-store.ts';

let directory: string | undefined;
afterEach(async () => {
  if (directory) await rm(directory, { recursive: true, force: true });
});
async function store() {
  directory = await mkdtemp(path.join(os.tmpdir(), 'weft-artifacts-'));
  return new FileArtifactStore(directory);
}

describe('loadArtifact', () => {
  const expected = { kind: 'reranker-linear', version: 2 };

  it('loads what artifactEnvelope stored under the stack.component name', async () => {
    const artifacts = await store();
    const name = artifactName('default', 'reranker-linear');
    expect(name).toBe('default.reranker-linear');
    await artifacts.put(name, artifactEnvelope('reranker-linear', 2, { weights: [1, 2] }));
    const loaded = await loadArtifact<{ weights: number[] }>(artifacts, name, expected);
    expect(loaded.status).toBe('loaded');
    if (loaded.status === 'loaded') expect(loaded.value.weights).toEqual([1, 2]);
  });

  it('says "missing" without a store or without the artifact, and "stale" for another version, kind or a bare object', async () => {
    const artifacts = await store();
    expect((await loadArtifact(undefined, 'x.y', expected)).status).toBe('missing');
    const missing = await loadArtifact(artifacts, 'default.reranker-linear', expected);
    expect(missing).toMatchObject({ status: 'missing', message: expect.stringMatching(/weft train/) });

    await artifacts.put('a.b', artifactEnvelope('reranker-linear', 1, {}));
    expect(await loadArtifact(artifacts, 'a.b', expected)).toMatchObject({
      status: 'stale',
      found: { kind: 'reranker-linear', version: 1 },
    });
    await artifacts.put('c.d', artifactEnvelope('planner-lexical', 2, {}));
    expect((await loadArtifact(artifacts, 'c.d', expected)).status).toBe('stale');
    await artifacts.put('e.f', { version: 1, linear: {} });
    expect(await loadArtifact(artifacts, 'e.f', expected)).toMatchObject({
      status: 'stale',
      message: expect.stringMatching(/predates versioned artifacts/),
    });
  });
});
