import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { WeftError } from '@weft/core';
import { readManifest, type StoreManifest } from '@weft/store';

const manifestFileName = 'store.json';
const serverLocation = /^[a-z][a-z0-9+.-]*:\/\//i;

/** Line and column (1-based) of a character offset in `text`. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: lines.at(-1)!.length + 1 };
}

/**
 * Reads a store's `store.json` like `readManifest` of `@weft/store`, but a file that is not JSON is
 * bad input (`WEFT_BAD_INPUT`, exit 2) named with its line and column, not a bare parser message.
 */
export async function readStoreManifest(directory: string): Promise<StoreManifest> {
  const file = path.join(directory, manifestFileName);
  let text: string | undefined;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    // No file: readManifest says that this is not a store and how to build one.
  }
  if (text !== undefined) {
    try {
      JSON.parse(text);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const offset = Number(/position (\d+)/.exec(reason)?.[1] ?? text.length);
      const { line, column } = lineColumn(text, offset);
      throw new WeftError({
        code: 'WEFT_BAD_INPUT',
        message: `${file}:${line}:${column}: the store's manifest is not JSON (${reason.replace(/ in JSON at position.*$|\s*\(line \d+ column \d+\)$/, '')}); rebuild the store with weft ingest`,
      });
    }
  }
  return readManifest(directory);
}

/**
 * What a store's manifest names that is not on disk: the graph, the text index, the vector index.
 * Such a store cannot be opened; `weft info` reports it as broken.
 */
export function missingStoreParts(directory: string, manifest: StoreManifest): string[] {
  // A graph on a server (`postgres://…`) is not a folder of the store: its absence is the server's to say.
  // Indexes on object storage (`s3://…`) likewise.
  const local = (part: string | undefined) =>
    part !== undefined && serverLocation.test(part) ? undefined : part;
  const parts: [string, string | undefined][] = [
    ['graph', local(manifest.graph?.path)],
    ['text index', local(manifest.indexes?.text.path)],
    ['vector index', local(manifest.indexes?.vector?.path)],
  ];
  return parts
    .filter(([, part]) => part !== undefined && !existsSync(path.resolve(directory, part)))
    .map(([what, part]) => `${what} at ${part} is missing`);
}

/**
 * Before a store is opened: a `store.json` that is not JSON or that names parts which are gone is
 * bad input (exit 2) said plainly. A directory without `store.json` is left to `openStore`, which
 * repairs an interrupted ingest or says that it is no store.
 */
export async function checkStoreFiles(directory: string): Promise<void> {
  if (!existsSync(path.join(directory, manifestFileName))) return;
  assertStoreComplete(directory, await readStoreManifest(directory));
}

/** Throws `WEFT_BAD_INPUT` when the store lacks a part its manifest names. */
export function assertStoreComplete(directory: string, manifest: StoreManifest): void {
  const missing = missingStoreParts(directory, manifest);
  if (missing.length > 0)
    throw new WeftError({
      code: 'WEFT_BAD_INPUT',
      message: `${directory} is a broken store: ${missing.join('; ')}; rebuild it with weft ingest <bundle> --db ${directory}`,
    });
}
