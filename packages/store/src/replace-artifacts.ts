import { existsSync } from 'node:fs';
import { cp, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { FileArtifactStore } from '@weft/core';
import type { ArtifactStore } from '@weft/spec';
import { recordFittedOn } from './artifact-freshness.ts';
import { readManifest } from './store-directory.ts';

/** The folder of a store that holds what `weft train` fitted. */
export function artifactsDirectory(storeDirectory: string): string {
  return path.join(storeDirectory, 'artifacts');
}

/**
 * Runs `fit` against a fresh artifact store and swaps it in for the store's artifacts only when
 * `fit` resolves: a failed or interrupted training run leaves the previous artifacts in place.
 * Readers of the store keep working throughout (they read whole files, and each rename is atomic).
 * With `keepExisting`, the fresh store starts as a copy of the current one, so training some stacks
 * keeps what the others learned. The store version the artefacts were fitted on is recorded beside
 * them (`FITTED-ON`; see `artifactFreshness`).
 */
export async function replaceArtifacts<T>(
  storeDirectory: string,
  fit: (artifacts: ArtifactStore) => Promise<T>,
  options: { readonly keepExisting?: boolean } = {},
): Promise<T> {
  const final = artifactsDirectory(storeDirectory);
  const next = `${final}.next-${process.pid}`;
  await rm(next, { recursive: true, force: true });
  // Read before the fit: an update committed during training is one the artefacts did not see.
  const manifest = existsSync(path.join(storeDirectory, 'store.json'))
    ? await readManifest(storeDirectory)
    : undefined;
  try {
    if (options.keepExisting && existsSync(final)) await cp(final, next, { recursive: true });
    const result = await fit(new FileArtifactStore(next));
    if (manifest && existsSync(next)) await recordFittedOn(next, manifest);
    const old = `${final}.old-${process.pid}`;
    if (existsSync(final)) await rename(final, old);
    if (existsSync(next)) await rename(next, final);
    await rm(old, { recursive: true, force: true });
    return result;
  } finally {
    await rm(next, { recursive: true, force: true });
  }
}
