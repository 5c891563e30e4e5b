import { existsSync, readdirSync } from 'node:fs';
import { open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { isAbsolute, join, normalize, sep } from 'node:path';
import { WeftError } from '@weft/kit';
import { manifestFileName } from './store-directory.ts';
import type { StoreManifest } from './store-manifest.ts';

/**
 * How `weft update` changes a store. Each update writes a new version folder,
 * `<store>/versions/v<N>/`: `lance/`, a hard-linked copy of the LanceDB table with the changes
 * added, and — unless the graph was changed in place — `graph/`, a changed copy of the graph.
 *
 * - **In place** (`GraphBackendV1.updateInPlace`: no one has the graph open): the graph is changed
 *   in one engine transaction that records the new store version; before it commits, what the rest
 *   of the update needs is written to `versions/v<N>/update.json`. The graph's commit is the
 *   update's: a kill before it leaves the old version; after it, the new one, whose index version
 *   and manifest the next open or update writes (`finishInterruptedUpdate` of `apply-changes.ts`)
 *   before anything reads the store.
 * - **Copy**: the new version is committed by renaming a new `store.json` over the old one. A reader
 *   that opened version N-1 keeps answering from it.
 *
 * After a commit, folders that neither the manifest nor the one before it (`retainedPaths`) name are
 * removed, versions N and N-1 kept; a killed update's version folder is removed by the next update.
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

/** Writes `manifest` to `target` through a synced temporary file and a rename: all of it or none. */
async function writeManifestFile(directory: string, target: string, manifest: StoreManifest): Promise<void> {
  const next = join(directory, `${manifestFileName}.next-${process.pid}`);
  const handle = await open(next, 'w');
  try {
    await handle.writeFile(`${JSON.stringify(manifest, null, 2)}\n`);
    // The version's files were written by this process before; the manifest must not reach the disk first.
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(next, target);
}

/** Writes the manifest to a new file and renames it over `store.json`: readers see all of it or none. */
export async function commitManifest(directory: string, manifest: StoreManifest): Promise<void> {
  await writeManifestFile(directory, join(directory, manifestFileName), manifest);
}

/** The folders a manifest names, relative to the store directory (not server locations). */
export function manifestPaths(manifest: StoreManifest): string[] {
  return [manifest.graph.path, manifest.indexes?.text.path, manifest.indexes?.vector?.path].filter(
    (path): path is string =>
      path !== undefined && !isAbsolute(path) && !/^[a-z][a-z0-9+.-]*:\/\//i.test(path),
  );
}

/**
 * Test hook for kill tests: when `WEFT_UPDATE_PAUSE_AT` names `phase`, writes `<store>/.update-paused`
 * (holding the phase) and waits until the process is killed.
 */
export async function pauseForTest(directory: string, phase: string): Promise<void> {
  if (process.env.WEFT_UPDATE_PAUSE_AT !== phase) return;
  await writeFile(join(directory, '.update-paused'), phase);
  await new Promise(() => setInterval(() => undefined, 1 << 30));
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
 * current one and the one before it (half-written ones of killed updates included) that neither
 * `manifest` nor the manifest before it (`retainedPaths`) names — a graph changed in place stays in
 * the folder of the version that copied it — and, from version 2 on, the graph and LanceDB folders
 * that `weft ingest` wrote (version 0) when no longer named.
 */
export async function collectOldVersions(directory: string, manifest: StoreManifest): Promise<void> {
  const current = storeVersion(manifest);
  const keep = new Set([current, current - 1]);
  const named = [...manifestPaths(manifest), ...(manifest.retainedPaths ?? [])].map((path) =>
    normalize(path),
  );
  const root = join(directory, versionsFolder);
  if (existsSync(root)) {
    for (const name of readdirSync(root)) {
      const version = /^v(\d+)$/.exec(name);
      if (version && keep.has(Number(version[1]))) continue;
      const folder = join(versionsFolder, name);
      const inside = (path: string, within: string) => path === within || path.startsWith(`${within}${sep}`);
      if (!named.some((path) => inside(path, folder))) {
        await rm(join(root, name), { recursive: true, force: true });
        continue;
      }
      // A graph changed in place stays in its version's folder; the rest of that version goes.
      for (const entry of readdirSync(join(root, name))) {
        const child = join(folder, entry);
        if (!named.some((path) => inside(path, child)))
          await rm(join(directory, child), { recursive: true, force: true });
      }
    }
  }
  if (current >= 2) {
    for (const original of ['graph', join('index', 'lance')])
      if (!named.includes(original)) await rm(join(directory, original), { recursive: true, force: true });
  }
}
