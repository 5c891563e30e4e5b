import type { ArtifactStore, RetrievalContext } from '@weft/spec';
import { describe, expect, it } from 'vitest';
import { ArtifactCache } from './artifact-cache.ts';
import { artifactEnvelope, defineArtifact } from './artifacts.ts';

function artifacts(entries: Record<string, unknown>): ArtifactStore & { reads: number } {
  const store = {
    reads: 0,
    get: async <T>(name: string) => {
      store.reads++;
      return entries[name] as T | undefined;
    },
    put: async () => {},
  };
  return store;
}

describe('ArtifactCache', () => {
  it('reads each store once, keeps stores apart, and warns on every fallback', async () => {
    const cache = new ArtifactCache(defineArtifact<{ w: number }>({ kind: 'k', version: 1 }));
    const a = artifacts({ m: artifactEnvelope('k', 1, { w: 1 }) });
    const b = artifacts({ m: artifactEnvelope('k', 1, { w: 2 }) });
    const warnings: string[] = [];
    // The cache reads only the context's artifacts and warn.
    const context = (store: ArtifactStore) =>
      ({ artifacts: store, warn: (m: string) => warnings.push(m) }) as unknown as RetrievalContext;
    const [first, second, again] = await Promise.all([
      cache.get(context(a), 'm'),
      cache.get(context(b), 'm'),
      cache.get(context(a), 'm'),
    ]);
    expect([first?.w, second?.w, again?.w]).toEqual([1, 2, 1]);
    expect([a.reads, b.reads]).toEqual([1, 1]);
    expect(warnings).toEqual([]);
    const missing = artifacts({});
    expect(await cache.get(context(missing), 'm')).toBeUndefined();
    expect(await cache.get(context(missing), 'm')).toBeUndefined();
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/"m" not found/);
  });
});
