import type { ArtifactStore } from '@weft/spec';
import { describe, expect, it } from 'vitest';
import { artifactEnvelope, artifactName, defineArtifact, loadArtifact } from './artifacts.ts';

async function store(): Promise<ArtifactStore & { stored: Map<string, unknown> }> {
  const stored = new Map<string, unknown>();
  return {
    stored,
    get: async <T>(name: string) => stored.get(name) as T | undefined,
    put: async (name: string, value: unknown) => {
      stored.set(name, value);
    },
  };
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

describe('defineArtifact', () => {
  const weights = defineArtifact<{ features: string[] }>({
    kind: 'reranker-x',
    version: 3,
    check: (value) => (value.features.join() === 'a,b' ? undefined : 'was fitted on other features'),
  });

  it('saves in a versioned envelope and loads it back, checking what the reader needs', async () => {
    const artifacts = await store();
    await weights.save(artifacts, 's.reranker-x', { features: ['a', 'b'] });
    expect(artifacts.stored.get('s.reranker-x')).toMatchObject({ kind: 'reranker-x', version: 3 });
    expect(await weights.load(artifacts, 's.reranker-x')).toMatchObject({ status: 'loaded' });
    await weights.save(artifacts, 's.reranker-x', { features: ['a'] });
    expect(await weights.load(artifacts, 's.reranker-x')).toMatchObject({
      status: 'stale',
      message: expect.stringMatching(/other features; re-run weft train/),
    });
  });

  it('reads a store trained before a rename under the former name', async () => {
    const artifacts = await store();
    await weights.save(artifacts, 'old.reranker-x', { features: ['a', 'b'] });
    const ref = weights.ref('new.reranker-x', ['old.reranker-x']);
    expect(ref).toEqual({
      name: 'new.reranker-x',
      kind: 'reranker-x',
      version: 3,
      formerNames: ['old.reranker-x'],
    });
    expect(await weights.load(artifacts, ref)).toMatchObject({ status: 'loaded' });
    expect((await weights.load(artifacts, 'new.reranker-x')).status).toBe('missing');
  });
});
