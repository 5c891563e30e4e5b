import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Where a bundle's files are; `.jsonl` is preferred over `.jsonl.gz` when both exist. */
export interface BundleFiles {
  readonly directory: string;
  readonly schema: string;
  readonly nodes: string | undefined;
  readonly edges: string | undefined;
  /** Query set name → path. */
  readonly queries: ReadonlyMap<string, string>;
}

function jsonl(directory: string, base: string): string | undefined {
  for (const name of [`${base}.jsonl`, `${base}.jsonl.gz`]) {
    const path = join(directory, name);
    if (existsSync(path)) return path;
  }
  return undefined;
}

export function locateBundleFiles(directory: string): BundleFiles {
  const queries = new Map<string, string>();
  const queryDirectory = join(directory, 'queries');
  if (existsSync(queryDirectory)) {
    for (const name of readdirSync(queryDirectory).sort()) {
      const match = /^(.+)\.jsonl(\.gz)?$/.exec(name);
      if (match?.[1] && !queries.has(match[1])) queries.set(match[1], join(queryDirectory, name));
    }
  }
  return {
    directory,
    schema: join(directory, 'schema.json'),
    nodes: jsonl(directory, 'nodes'),
    edges: jsonl(directory, 'edges'),
    queries,
  };
}
