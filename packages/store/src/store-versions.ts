import { existsSync, readdirSync } from 'node:fs';
import { open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WeftError } from '@weft/kit';
import { manifestFileName } from './store-directory.ts';
import type { StoreManifest } from './store-manifest.ts';

/**
 * How `weft update` changes a store without ever changing what a reader may have open: each update
 * writes the whole changed state as a new version folder, `<store>/versions/v<N>/` (`graph/` a copy
 * of the graph, `lance/` a hard-linked copy of the LanceDB table), and commits it by renaming a new
 * `store.json` over the old one — the one atomic step. A reader that opened version N-1 keeps
 * answering from it: only versions older than that are removed after a commit. A killed update
 * leaves a version folder that no manifest names, removed by the next update.
 */
export const versionsFolder = 'versions';

/** The store version a manifest records; a store built by `weft ingest` is version 0. */
export function storeVersion(manifest: StoreManifest): number {
  return manifest.storeVersion ?? 0;
}

/** `versions/v<N>`, relative to the store directory. */
export function versionFolder(version: number): string {
  return join(versionsFolder, `v${version}`);
}

/** Writes the manifest to a new file and renames it over `store.json`: readers see all of it or none. */
export async function commitManifest(directory: string, manifest: StoreManifest): Promise<void> {
  const next = join(directory, `${manifestFileName}.next-${process.pid}`);
  const handle = await open(next, 'w');
  try {
    await handle.writeFile(`${JSON.stringify(manifest, null, 2)}\n`);
    // The version's files were written by this process before; the manifest must not reach the disk first.
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(next, join(directory, manifestFileName));
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the store's update lock (`<store>/.update.lock`, holding the pid): one update at a time.
 * A lock left by a dead process is taken over. Returns the function that releases it.
 */
export async function lockForUpdate(directory: string): Promise<() => Promise<void>> {
  const path = join(directory, '.update.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await writeFile(path, String(process.pid), { flag: 'wx' });
      return () => rm(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number((await readFile(path, 'utf8').catch(() => '')).trim());
      if (alive(holder) && holder !== process.pid)
        throw new WeftError({
          code: 'WEFT_WRITE_REJECTED',
          message: `${directory} is being updated by process ${holder}; try again when it has finished`,
          details: { pid: holder },
        });
      // The holder died (or wrote nothing yet and died): its lock, and its half-written version, are stale.
      await rm(path, { force: true });
    }
  }
  throw new WeftError({ code: 'WEFT_WRITE_REJECTED', message: `cannot lock ${directory} for an update` });
}

/**
 * Removes what no reader can need once `manifest` is committed: version folders other than the
 * current one and the one before it (half-written ones of killed updates included), and, from
 * version 2 on, the graph and LanceDB folders that `weft ingest` wrote (version 0).
 */
export async function collectOldVersions(directory: string, manifest: StoreManifest): Promise<void> {
  const current = storeVersion(manifest);
  const keep = new Set([current, current - 1]);
  const root = join(directory, versionsFolder);
  if (existsSync(root)) {
    for (const name of readdirSync(root)) {
      const version = /^v(\d+)$/.exec(name);
      if (version && keep.has(Number(version[1]))) continue;
      await rm(join(root, name), { recursive: true, force: true });
    }
  }
  if (current >= 2) {
    const named = new Set([manifest.graph.path, manifest.indexes?.text.path, manifest.indexes?.vector?.path]);
    for (const original of ['graph', join('index', 'lance')])
      if (!named.has(original)) await rm(join(directory, original), { recursive: true, force: true });
  }
}
