import { createReadStream, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createGunzip } from 'node:zlib';
import type { SkbNode, SkbQuery, SkbSchema } from '@weft/spec';

/** The shared data folder: $WEFT_SHARED, else `<repo root>/../shared`. */
export function sharedDirectory(): string {
  if (process.env.WEFT_SHARED) return process.env.WEFT_SHARED;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'pnpm-workspace.yaml'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error('repository root (pnpm-workspace.yaml) not found');
    dir = up;
  }
  return path.resolve(dir, '../shared');
}

export const wordnetDirectory = (): string => path.join(sharedDirectory(), 'datasets', 'wordnet');

async function* jsonLines<T>(file: string): AsyncGenerator<T> {
  const input = file.endsWith('.gz') ? createReadStream(file).pipe(createGunzip()) : createReadStream(file);
  for await (const line of readline.createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
    if (line.trim()) yield JSON.parse(line) as T;
  }
}

/** Streams the bundle's nodes (nodes.jsonl or nodes.jsonl.gz). */
export function readNodes(bundle: string): AsyncGenerator<SkbNode> {
  const gz = path.join(bundle, 'nodes.jsonl.gz');
  return jsonLines<SkbNode>(existsSync(gz) ? gz : path.join(bundle, 'nodes.jsonl'));
}

export async function readQueries(bundle: string, set: string): Promise<SkbQuery[]> {
  const out: SkbQuery[] = [];
  for await (const q of jsonLines<SkbQuery>(path.join(bundle, 'queries', `${set}.jsonl`))) out.push(q);
  return out;
}

export function readSchema(bundle: string): SkbSchema {
  return JSON.parse(readFileSync(path.join(bundle, 'schema.json'), 'utf8')) as SkbSchema;
}
