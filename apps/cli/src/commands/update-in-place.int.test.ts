// `weft update` without copying the graph (issue 48): with no one holding the graph open, an update
// changes the Kùzu graph in place, in one transaction, and its new version holds only the LanceDB
// table; with a reader holding it, the update writes a changed copy as before.
import { existsSync } from 'node:fs';
import { cp, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { applyChanges, directoryBytes, openStore, versionsFolder } from '@weft/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeSetFixture } from '../testing/change-set-fixture.ts';
import { changeSetStores, stackRankings as rankings } from '../testing/update-stores.ts';

describe('weft update in place', () => {
  let root: string;
  let fixture: ChangeSetFixture;
  let template: string;
  let rebuilt: string;
  beforeAll(async () => {
    ({
      root,
      fixture,
      stores: { template, rebuilt },
    } = await changeSetStores('weft-update-in-place-', { template: 'before', rebuilt: 'after' }));
  }, 300_000);
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('changes the graph where it is and ranks as a store built from B (bm25, bm25-rel, default)', async () => {
    const store = join(root, 'in-place');
    await cp(template, store, { recursive: true });
    const applied = await applyChanges(store, fixture.changes);
    expect(applied.mode).toBe('in-place');
    expect(applied.copyReason).toBeUndefined();
    expect(applied.version).toBe(1);
    // The graph stays where the ingest put it; version 1 holds only the table.
    expect(applied.manifest.graph.path).toBe('graph');
    expect(await readdir(join(store, versionsFolder, 'v1'))).toEqual(['lance']);
    expect(existsSync(join(store, 'store.json.pending'))).toBe(false);
    const after = await openStore(store);
    const fresh = await openStore(rebuilt);
    try {
      expect(after.graph.storeVersion).toBe(1);
      expect(after.manifest.counts).toEqual(fresh.manifest.counts);
      expect(await after.graph.doStats()).toMatchObject({
        nodes: fresh.manifest.counts.nodes,
        edges: fresh.manifest.counts.edges,
      });
      const ids = [fixture.deleted, fixture.added, 'author:0', 'paper:30'];
      expect(await after.graph.doGetNodes(ids)).toEqual(await fresh.graph.doGetNodes(ids));
      expect((await after.graph.doLookup(['Renamed Quorvath']))[0]?.[0]?.id).toBe('author:0');
      for (const stack of ['bm25', 'bm25-rel', 'default'])
        expect(await rankings(after, stack, fixture.queries), stack).toEqual(
          await rankings(fresh, stack, fixture.queries),
        );
    } finally {
      await after.close();
      await fresh.close();
    }
    // A second update in place starts from the first: the same change set again changes nothing
    // new but still commits (upserts count as changes), and the store answers the same.
    const again = await applyChanges(store, fixture.changes);
    expect(again).toMatchObject({ mode: 'in-place', version: 2 });
    const reopened = await openStore(store);
    try {
      expect(reopened.manifest.counts).toEqual(applied.manifest.counts);
      expect(await rankings(reopened, 'bm25-rel', fixture.queries)).toEqual(
        await (async () => {
          const fresh2 = await openStore(rebuilt);
          try {
            return await rankings(fresh2, 'bm25-rel', fixture.queries);
          } finally {
            await fresh2.close();
          }
        })(),
      );
    } finally {
      await reopened.close();
    }
    // Version 0's table is gone; the graph, named by every manifest, stays.
    expect(existsSync(join(store, 'graph'))).toBe(true);
    expect(existsSync(join(store, 'index', 'lance'))).toBe(false);
  }, 300_000);

  it('grows the store by a small part of what a copying update adds', async () => {
    const inPlace = join(root, 'growth-in-place');
    const copied = join(root, 'growth-copy');
    await cp(template, inPlace, { recursive: true });
    await cp(template, copied, { recursive: true });
    const base = await directoryBytes(template, { allocated: true });
    const graphBytes = await directoryBytes(join(template, 'graph'), { allocated: true });
    expect((await applyChanges(inPlace, fixture.changes)).mode).toBe('in-place');
    expect((await applyChanges(copied, fixture.changes, { inPlace: false })).mode).toBe('copy');
    const grownInPlace = (await directoryBytes(inPlace, { allocated: true })) - base;
    const grownByCopy = (await directoryBytes(copied, { allocated: true })) - base;
    console.log(
      `update of ${fixture.changes}: store ${base} bytes (graph ${graphBytes}); grown ${grownInPlace} in place, ${grownByCopy} by copy`,
    );
    // A copy adds at least the graph; in place, what the change set writes. The table's new
    // version (new fragments, its index deltas) is the same either way.
    expect(grownByCopy - grownInPlace).toBeGreaterThan(0.8 * graphBytes);
    expect(grownInPlace).toBeLessThan(0.5 * grownByCopy);
  }, 300_000);

  it('writes a copy while a reader holds the graph, and the reader keeps answering from its version', async () => {
    const store = join(root, 'held');
    await cp(template, store, { recursive: true });
    const reader = await openStore(store);
    try {
      const before = await rankings(reader, 'bm25-rel', fixture.queries);
      const applied = await applyChanges(store, fixture.changes);
      expect(applied.mode).toBe('copy');
      expect(applied.copyReason).toMatch(/open in another process or opener/);
      expect(applied.manifest.graph.path).toBe(join(versionsFolder, 'v1', 'graph'));
      expect(await rankings(reader, 'bm25-rel', fixture.queries)).toEqual(before);
    } finally {
      await reader.close();
    }
    // With the reader gone, the next update changes the copy in place and the first copy's folder stays.
    const second = await applyChanges(store, fixture.changes);
    expect(second).toMatchObject({ mode: 'in-place', version: 2 });
    expect(second.manifest.graph.path).toBe(join(versionsFolder, 'v1', 'graph'));
    const third = await applyChanges(store, fixture.changes);
    expect(third).toMatchObject({ mode: 'in-place', version: 3 });
    expect(existsSync(join(store, versionsFolder, 'v1', 'graph'))).toBe(true);
    expect(existsSync(join(store, versionsFolder, 'v1', 'lance'))).toBe(false);
    const reopened = await openStore(store);
    const fresh = await openStore(rebuilt);
    try {
      expect(reopened.manifest.counts).toEqual(fresh.manifest.counts);
      expect(await rankings(reopened, 'bm25-rel', fixture.queries)).toEqual(
        await rankings(fresh, 'bm25-rel', fixture.queries),
      );
    } finally {
      await reopened.close();
      await fresh.close();
    }
  }, 300_000);
});
