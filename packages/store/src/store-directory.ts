import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { WeftError } from '@weft/kit';
import { embeddingCacheFolder } from './embedding-cache.ts';
import type { StoreManifest } from './store-manifest.ts';

export const manifestFileName = 'store.json';

/** Siblings of a store that an interrupted ingest may leave: `.<name>.building-<pid>-…`, `.<name>.old-<pid>-…`. */
function siblings(directory: string, kind: 'building' | 'old'): string[] {
  const parent = dirname(directory);
  const prefix = `.${basename(directory)}.${kind}-`;
  if (!existsSync(parent)) return [];
  return readdirSync(parent)
    .filter((name) => name.startsWith(prefix))
    .map((name) => join(parent, name));
}

export function stagingDirectory(directory: string): string {
  return join(
    dirname(directory),
    `.${basename(directory)}.building-${process.pid}-${Date.now().toString(36)}`,
  );
}

export function retiredDirectory(directory: string): string {
  return join(dirname(directory), `.${basename(directory)}.old-${process.pid}-${Date.now().toString(36)}`);
}

function pidOf(path: string): number {
  return Number(/-(\d+)-[a-z0-9]+$/.exec(path)?.[1] ?? Number.NaN);
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid)) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Repairs what a killed ingest left: a swap interrupted between its two renames (the store moved
 * aside, the new one not yet in place) is rolled back, and staging folders of dead processes are removed.
 */
export async function recoverStoreDirectory(directory: string): Promise<void> {
  if (!existsSync(directory)) {
    const retired = siblings(directory, 'old').filter((path) => existsSync(join(path, manifestFileName)));
    const latest = retired.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
    if (latest) await rename(latest, directory);
  }
  for (const path of [...siblings(directory, 'building'), ...siblings(directory, 'old')]) {
    if (alive(pidOf(path))) continue;
    await rescueEmbeddingCache(path, directory);
    await rm(path, { recursive: true, force: true });
  }
}

/**
 * Moves the embedding cache of `from` (a staging or retired folder about to be removed) into the
 * store `directory`: whole when the store has none, else segment by segment (their names are unique).
 */
export async function rescueEmbeddingCache(from: string, directory: string): Promise<void> {
  const source = join(from, embeddingCacheFolder);
  if (!existsSync(source)) return;
  const target = join(directory, embeddingCacheFolder);
  if (!existsSync(target)) {
    await mkdir(directory, { recursive: true });
    await rename(source, target);
    return;
  }
  for (const name of await readdir(source)) {
    if (!existsSync(join(target, name))) await rename(join(source, name), join(target, name));
  }
}

/** Throws `WEFT_BAD_INPUT` when `directory` exists but is not a Weft store we may replace. */
export function assertReplaceable(directory: string): void {
  if (!existsSync(directory)) return;
  if (!statSync(directory).isDirectory()) {
    throw new WeftError({
      code: 'WEFT_BAD_INPUT',
      message: `--db ${directory} exists and is not a directory; refusing to replace it`,
    });
  }
  // A directory that holds only an embedding cache is what a first ingest killed midway leaves.
  const entries = readdirSync(directory).filter((name) => name !== embeddingCacheFolder);
  if (entries.length > 0 && !existsSync(join(directory, manifestFileName))) {
    throw new WeftError({
      code: 'WEFT_BAD_INPUT',
      message: `--db ${directory} is a non-empty directory without ${manifestFileName}, so not a Weft store; refusing to replace it`,
    });
  }
}

export async function readManifest(directory: string): Promise<StoreManifest> {
  const path = join(directory, manifestFileName);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw new WeftError({
      code: 'WEFT_NOT_FOUND',
      message: `${directory} is not a Weft store (no ${manifestFileName}); build one with weft ingest <bundle> --db ${directory}`,
    });
  }
  const manifest = JSON.parse(text) as StoreManifest;
  if (manifest.formatVersion !== 1) {
    throw new WeftError({
      code: 'WEFT_UNSUPPORTED',
      message: `${path}: store format ${String(manifest.formatVersion)} is not supported; re-run weft ingest`,
    });
  }
  return manifest;
}
