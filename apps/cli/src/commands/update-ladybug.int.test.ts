// LadybugDB only: a process must never load both Kùzu and LadybugDB (see @weft/store's graph-backends).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStack } from '@weft/stacks';
import { applyChanges, buildStore, openStore } from '@weft/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ChangeSetFixture,
  comparableRanking,
  writeChangeSetFixture,
} from '../testing/change-set-fixture.ts';

async function rankings(directory: string, queries: readonly string[]) {
  const store = await openStore(directory);
  try {
    expect(store.manifest.graph.provider).toBe('ladybug');
    const retriever = await createStack('bm25-rel', store);
    const out: { id: string; score: number }[][] = [];
    for (const query of queries)
      out.push(comparableRanking((await retriever.doRetrieve({ query, limit: 20 })).ranking, 20));
    return {
      counts: store.manifest.counts,
      out,
      node: await store.graph.doGetNodes(['author:0', 'paper:new-0', 'paper:10']),
    };
  } finally {
    await store.close();
  }
}

describe('weft update on a LadybugDB store', () => {
  let root: string;
  let fixture: ChangeSetFixture;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'weft-update-ladybug-'));
    fixture = await writeChangeSetFixture(root);
  }, 120_000);
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('updated from A with A→B, answers as a store ingested from B', async () => {
    const updated = join(root, 'updated');
    const rebuilt = join(root, 'rebuilt');
    await buildStore({ bundle: fixture.before, directory: updated, graph: 'ladybug' });
    await buildStore({ bundle: fixture.after, directory: rebuilt, graph: 'ladybug' });
    const applied = await applyChanges(updated, fixture.changes);
    expect(applied.version).toBe(1);
    // LadybugDB, a Kùzu-API engine, takes the in-place path too: the graph stays where the ingest put it.
    expect(applied.mode).toBe('in-place');
    expect(applied.manifest.graph.path).toBe('graph');
    expect(await rankings(updated, fixture.queries)).toEqual(await rankings(rebuilt, fixture.queries));
  }, 300_000);
});
