// The `weft update` tests' setup: the change-set fixture in a scratch folder, stores built from its
// bundles, and rankings compared across stores.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStack } from '@weft/stacks';
import { buildStore, type OpenedStore } from '@weft/store';
import { type ChangeSetFixture, comparableRanking, writeChangeSetFixture } from './change-set-fixture.ts';

/** Each query's ranking by `stack` over an opened store, top 20, as `comparableRanking` puts it. */
export async function stackRankings(store: OpenedStore, stack: string, queries: readonly string[]) {
  const retriever = await createStack(stack, store);
  const out: { id: string; score: number }[][] = [];
  for (const query of queries) {
    const { ranking } = await retriever.doRetrieve({ query, limit: 20 });
    out.push(comparableRanking(ranking, 20));
  }
  return out;
}

/**
 * A scratch folder (`mkdtemp` of `prefix`) with the change-set fixture, and a store in each of its
 * folders named in `stores`, built (in that order) from the fixture's bundle A (`'before'`) or B
 * (`'after'`). The caller removes `root`.
 */
export async function changeSetStores<const Folder extends string>(
  prefix: string,
  stores: Readonly<Record<Folder, 'before' | 'after'>>,
): Promise<{ root: string; fixture: ChangeSetFixture; stores: Record<Folder, string> }> {
  const root = await mkdtemp(join(tmpdir(), prefix));
  const fixture = await writeChangeSetFixture(root);
  const built = {} as Record<Folder, string>;
  for (const [folder, bundle] of Object.entries(stores) as [Folder, 'before' | 'after'][]) {
    built[folder] = join(root, folder);
    await buildStore({ bundle: fixture[bundle], directory: built[folder] });
  }
  return { root, fixture, stores: built };
}
