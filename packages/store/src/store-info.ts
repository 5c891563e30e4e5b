import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { artifactsDirectory } from './replace-artifacts.ts';
import type { StoreManifest } from './store-manifest.ts';
import { storeVersion } from './store-versions.ts';

/** One trained artifact of a store, as `weft info` lists it. */
export interface ArtifactInfo {
  readonly name: string;
  /** The component that reads it and its format version; `unknown`/0 for files older than versioned artifacts. */
  readonly kind: string;
  readonly version: number;
  readonly createdAt?: string;
  readonly bytes: number;
}

/** What a store holds: the report of `weft info --json`. */
export interface StoreInfo {
  readonly directory: string;
  readonly formatVersion: number;
  readonly createdAt: string;
  /** Updates (`weft update`) committed since the build: 0 for a store as `weft ingest` built it. */
  readonly storeVersion: number;
  /** When the last update was committed; absent at version 0. */
  readonly updatedAt?: string;
  /** Records (upserts and deletions) the updates changed, all together. */
  readonly changedRecords: number;
  readonly bundle: StoreManifest['bundle'];
  readonly schema: {
    readonly name: string;
    readonly nodeTypes: number;
    readonly edgeTypes: number;
    readonly targetTypes?: readonly string[];
  };
  readonly counts: StoreManifest['counts'];
  readonly graph: StoreManifest['graph'];
  readonly indexes: StoreManifest['indexes'] | null;
  readonly artifacts: readonly ArtifactInfo[];
  /** Bytes on disk, the whole directory. */
  readonly bytes: number;
}

/**
 * Bytes on disk under `directory`, each file counted once however many hard links it has (by device
 * and inode): an update that links unchanged files into the new version does not double the size.
 * `allocated`: the blocks the file system holds for each file instead of its length (what a
 * database file that grows in place or has holes really costs).
 */
export async function directoryBytes(
  directory: string,
  options: { readonly allocated?: boolean } = {},
  seen: Set<string> = new Set(),
): Promise<number> {
  let total = 0;
  for (const entry of await readdir(directory, { withFileTypes: true })) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) total += await directoryBytes(full, options, seen);
    else if (entry.isFile()) {
      const info = await stat(full, { bigint: true });
      const key = `${info.dev}:${info.ino}`;
      if (seen.has(key)) continue;
      seen.add(key);
      total += Number(options.allocated ? info.blocks * 512n : info.size);
    }
  }
  return total;
}

async function listArtifacts(directory: string): Promise<ArtifactInfo[]> {
  if (!existsSync(directory)) return [];
  const files = (await readdir(directory)).filter((file) => file.endsWith('.json')).sort();
  return Promise.all(
    files.map(async (file) => {
      const full = path.join(directory, file);
      const bytes = (await stat(full)).size;
      let head: { kind?: unknown; version?: unknown; createdAt?: unknown } = {};
      try {
        head = JSON.parse(await readFile(full, 'utf8')) as typeof head;
      } catch {
        // A damaged file is listed as unknown; loading it reports the problem.
      }
      return {
        name: file.slice(0, -'.json'.length),
        kind: typeof head.kind === 'string' ? head.kind : 'unknown',
        version: typeof head.version === 'number' && typeof head.kind === 'string' ? head.version : 0,
        ...(typeof head.createdAt === 'string' ? { createdAt: head.createdAt } : {}),
        bytes,
      };
    }),
  );
}

/** Describes a store from its manifest and its files, without opening the graph or the indexes. */
export async function storeInfo(directory: string, manifest: StoreManifest): Promise<StoreInfo> {
  return {
    directory,
    formatVersion: manifest.formatVersion,
    createdAt: manifest.createdAt,
    storeVersion: storeVersion(manifest),
    ...(manifest.updatedAt ? { updatedAt: manifest.updatedAt } : {}),
    changedRecords: manifest.changedRecords ?? 0,
    bundle: manifest.bundle,
    schema: {
      name: manifest.schema.name,
      nodeTypes: manifest.schema.nodeTypes.length,
      edgeTypes: new Set(manifest.schema.edgeTypes.map((e) => e.name)).size,
      ...(manifest.schema.targetTypes ? { targetTypes: manifest.schema.targetTypes } : {}),
    },
    counts: manifest.counts,
    graph: manifest.graph,
    indexes: manifest.indexes ?? null,
    artifacts: await listArtifacts(artifactsDirectory(directory)),
    bytes: await directoryBytes(directory),
  };
}
