import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toySkb } from '@weft/core/test';
import { writeBundle } from '@weft/skb';
import type { SkbQuery } from '@weft/spec';
import { buildStore } from '@weft/store';

/** Test support (not a test): hand-checked questions about the toy camera shop. */
export const toyQueries: readonly SkbQuery[] = [
  { id: 't1', query: 'lens with EF mount', answers: ['p:ef'], split: 'train' },
  { id: 't2', query: 'Canon camera for sports', answers: ['p:eos'], split: 'train' },
  { id: 't3', query: 'Nikon lens for birds', answers: ['p:nikkor'], split: 'train' },
  { id: 't4', query: 'waterproof camera for wildlife at night', answers: ['p:trailcam'], split: 'train' },
  { id: 't6', query: 'zoom lens that works with the Canon EOS 90D', answers: ['p:ef'], split: 'train' },
  { id: 'v1', query: 'Nikon zoom lens', answers: ['p:nikkor'], split: 'val' },
  { id: 'v3', query: 'camera for street photography', answers: ['p:q2'], split: 'val' },
  { id: 'q1', query: 'telephoto zoom lens for birds', answers: ['p:nikkor'], split: 'test' },
  { id: 'q2', query: 'camera for wildlife triggered by motion', answers: ['p:trailcam'], split: 'test' },
  { id: 'q5', query: 'full frame cameras', answers: ['p:d850', 'p:q2'], split: 'test' },
];

/**
 * A real store (Kùzu + LanceDB) built from the toy SKB of `@weft/core/test` in a fresh temporary
 * folder; `cleanup` removes the folder.
 */
export async function toyStoreDirectory(): Promise<{
  root: string;
  db: string;
  cleanup: () => Promise<void>;
}> {
  const root = await mkdtemp(join(tmpdir(), 'weft-server-'));
  const bundle = join(root, 'bundle');
  const skb = toySkb();
  await writeBundle(bundle, {
    schema: skb.schema,
    nodes: skb.nodes,
    edges: skb.edges,
    queries: { toy: toyQueries },
  });
  const db = join(root, 'store');
  await buildStore({ bundle, directory: db });
  return { root, db, cleanup: () => rm(root, { recursive: true, force: true }) };
}
