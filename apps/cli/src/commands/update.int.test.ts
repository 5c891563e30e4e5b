import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createStack } from '@weft/stacks';
import {
  applyChanges,
  artifactFreshness,
  type OpenedStore,
  openStore,
  replaceArtifacts,
  resolveGraphBackend,
} from '@weft/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.ts';
import { captureIo } from '../testing/capture-io.ts';
import type { ChangeSetFixture } from '../testing/change-set-fixture.ts';
import { changeSetStores, stackRankings as rankings } from '../testing/update-stores.ts';
import { askCommand } from './ask.ts';
import { infoCommand } from './info.ts';
import { queryCommand } from './query.ts';
import { updateCommand } from './update.ts';

describe('weft update', () => {
  let root: string;
  let fixture: ChangeSetFixture;
  let updated: string;
  let rebuilt: string;
  beforeAll(async () => {
    ({
      root,
      fixture,
      stores: { updated, rebuilt },
    } = await changeSetStores('weft-update-', { updated: 'before', rebuilt: 'after' }));
    // Something trained on version 0 (what it holds does not matter here, only when it was fitted).
    await replaceArtifacts(updated, (artifacts) => artifacts.put('update-test.marker', { fitted: true }));
  }, 300_000);
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('refuses an invalid change set with file:line problems and leaves the store as it was', async () => {
    const bad = join(root, 'bad-changes');
    await cp(fixture.changes, bad, { recursive: true });
    await writeFile(
      join(bad, 'nodes.jsonl'),
      [
        '{"id": "paper:new-x", "type": "paper", "name": "ok", "text": "fine"}',
        '{"id": "paper:new-y", "type": "poem", "name": "a", "text": "b"}',
        '{"id": "author:0", "type": "paper", "name": "was an author", "text": ""}',
        '{"id": "paper:new-z", "type": "paper"',
      ].join('\n'),
    );
    await writeFile(
      join(bad, 'edges.jsonl'),
      '{"src": "paper:new-x", "type": "cites", "dst": "paper:nowhere"}\n{"src": "paper:new-x", "type": "written_by", "dst": "paper:1"}\n',
    );
    await writeFile(join(bad, 'deletions.jsonl'), '{"node": "paper:3"}\n{"edge": {"src": "paper:3"}}\n');
    await writeFile(
      join(bad, 'schema.json'),
      JSON.stringify({ name: 'other', version: 1, nodeTypes: [], edgeTypes: [] }),
    );
    const c = captureIo(root);
    const code = await runCli(['update', '--db', updated, bad], c.io, [updateCommand]);
    expect(code).not.toBe(0);
    const err = c.err();
    expect(err).toContain('nodes.jsonl:2: [type] node type "poem" is not declared');
    expect(err).toContain(
      'nodes.jsonl:3: [type] node "author:0" is a author in the store; an upsert cannot change its type',
    );
    expect(err).toContain('nodes.jsonl:4:');
    expect(err).toContain('(BAD_JSON)');
    expect(err).toContain('edges.jsonl:1: [dst] dst "paper:nowhere" is neither a node of the store');
    expect(err).toContain(
      'edges.jsonl:2: [type] "written_by" edge from paper to paper contradicts the schema',
    );
    expect(err).toContain('deletions.jsonl:2: [edge.type] missing "type"');
    expect(err).toContain("schema.json: [name] the change set's schema differs from the store's");
    expect(err).toContain('(SCHEMA_CHANGE)');
    expect(err).toContain('the store was not changed');
    const store = await openStore(updated);
    try {
      expect(store.manifest.storeVersion ?? 0).toBe(0);
    } finally {
      await store.close();
    }
  });

  it('a store built from A and updated with A→B ranks as one built from B (bm25, bm25-rel, default)', async () => {
    // A reader opened before the update keeps answering from the version it opened.
    const reader = await openStore(updated);
    try {
      const beforeUpdate = await rankings(reader, 'bm25-rel', fixture.queries);
      const c = captureIo(root);
      const code = await runCli(['update', '--db', updated, fixture.changes, '--json'], c.io, [
        updateCommand,
      ]);
      expect(c.err()).toBe('');
      expect(code).toBe(0);
      const report = JSON.parse(c.out()) as { version: number; nodesDeleted: number; embedded: number };
      expect(report.version).toBe(1);
      expect(await rankings(reader, 'bm25-rel', fixture.queries)).toEqual(beforeUpdate);
    } finally {
      await reader.close();
    }
    const after = await openStore(updated);
    const fresh = await openStore(rebuilt);
    try {
      expect(after.manifest.counts).toEqual(fresh.manifest.counts);
      expect(await after.graph.doGetNodes([fixture.deleted, fixture.added])).toEqual(
        await fresh.graph.doGetNodes([fixture.deleted, fixture.added]),
      );
      expect((await after.graph.doLookup(['Renamed Quorvath']))[0]?.[0]?.id).toBe('author:0');
      for (const stack of ['bm25', 'bm25-rel', 'default']) {
        expect(await rankings(after, stack, fixture.queries), stack).toEqual(
          await rankings(fresh, stack, fixture.queries),
        );
      }
      // The vectors are not equal: the local embedder was fitted on A, an ingest of B fits it on B.
      // How far apart the two stores' vector rankings are is measured, not required.
      const top = async (store: OpenedStore) => {
        const retriever = await createStack('vector', store);
        const out: string[][] = [];
        for (const query of fixture.queries)
          out.push((await retriever.doRetrieve({ query, limit: 10 })).ranking.map((c) => c.id));
        return out;
      };
      const [updatedTop, freshTop] = [await top(after), await top(fresh)];
      const overlap =
        updatedTop.reduce(
          (sum, ids, i) => sum + ids.filter((id) => freshTop[i]!.includes(id)).length / 10,
          0,
        ) / updatedTop.length;
      const sameFirst = updatedTop.filter((ids, i) => ids[0] === freshTop[i]![0]).length / updatedTop.length;
      console.log(
        `vector stack, store updated A→B vs ingested from B: top-10 overlap ${(overlap * 100).toFixed(1)} %, same first result ${(sameFirst * 100).toFixed(1)} % of ${updatedTop.length} queries`,
      );
    } finally {
      await after.close();
      await fresh.close();
    }
  }, 300_000);

  it('weft info shows the version the update committed, in text and in --json', async () => {
    const c = captureIo(root);
    expect(await runCli(['info', '--db', updated], c.io, [infoCommand])).toBe(0);
    expect(c.out()).toMatch(
      /^ {2}version: 1 \(1 update\(s\) since the build changed \d+ records, the last at \S+\)$/m,
    );
    const j = captureIo(root);
    expect(await runCli(['info', '--db', updated, '--json'], j.io, [infoCommand])).toBe(0);
    const info = JSON.parse(j.out()) as { storeVersion: number; changedRecords: number; updatedAt?: string };
    expect(info.storeVersion).toBe(1);
    expect(info.changedRecords).toBeGreaterThan(0);
    expect(info.updatedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    const fresh = captureIo(root);
    expect(await runCli(['info', '--db', rebuilt, '--json'], fresh.io, [infoCommand])).toBe(0);
    expect(JSON.parse(fresh.out())).toMatchObject({ storeVersion: 0, changedRecords: 0 });
  });

  it('reports trained artifacts as stale after updates beyond the threshold, until weft train refits them', async () => {
    const store = await openStore(updated);
    try {
      const freshness = await artifactFreshness(updated, store.manifest);
      expect(freshness).toMatchObject({ stale: true, storeVersion: 1, fittedOn: { storeVersion: 0 } });
    } finally {
      await store.close();
    }
    const c = captureIo(root);
    expect(
      await runCli(['query', '--db', updated, '--stack', 'bm25', 'glimmerstone'], c.io, [queryCommand]),
    ).toBe(0);
    expect(c.err()).toContain(
      'warning: the trained artifacts were fitted on store version 0; 1 update(s) since changed',
    );
    expect(c.err()).toContain('run weft train');
    const json = captureIo(root);
    await runCli(['query', '--db', updated, '--stack', 'bm25', 'glimmerstone', '--json'], json.io, [
      queryCommand,
    ]);
    expect((JSON.parse(json.out()) as { warnings: string[] }).warnings.join()).toContain('may be stale');
    // weft ask says it too, with or without a model (none here: the evidence only).
    const ask = captureIo(root);
    expect(
      await runCli(['ask', '--db', updated, '--stack', 'bm25', 'glimmerstone'], ask.io, [askCommand]),
    ).toBe(0);
    expect(ask.err()).toContain('warning: the trained artifacts were fitted on store version 0');
    const askJson = captureIo(root);
    await runCli(['ask', '--db', updated, '--stack', 'bm25', 'glimmerstone', '--json'], askJson.io, [
      askCommand,
    ]);
    expect((JSON.parse(askJson.out()) as { warnings: string[] }).warnings.join()).toContain('may be stale');

    await replaceArtifacts(updated, (artifacts) => artifacts.put('update-test.marker', { fitted: true }));
    const refitted = await openStore(updated);
    try {
      expect((await artifactFreshness(updated, refitted.manifest))?.stale).toBe(false);
    } finally {
      await refitted.close();
    }
  });

  it('refuses a store whose graph backend cannot update, naming the backend', async () => {
    // Kùzu as a backend that never got `update` (as PostgreSQL's has none).
    const { update: _update, ...withoutUpdate } = await resolveGraphBackend('kuzu');
    await expect(applyChanges(updated, fixture.changes, { graphBackends: [withoutUpdate] })).rejects.toThrow(
      "the store's graph backend 'kuzu' cannot apply changes in place; rebuild the store with weft ingest",
    );
  });

  it('rebuilds a graph grown past twice its compact size, keeping what the store answers', async () => {
    const before = await openStore(updated);
    const graphFolder = join(updated, before.manifest.graph.path);
    await before.close();
    // As if the graph had been built at one byte: any size is past twice that.
    await writeFile(join(graphFolder, 'compact-bytes'), '1');
    const applied = await applyChanges(updated, fixture.changes);
    expect(applied.timings).toHaveProperty('graph');
    const compacted = Number(
      await readFile(join(updated, applied.manifest.graph.path, 'compact-bytes'), 'utf8'),
    );
    expect(compacted).toBeGreaterThan(1);
    const after = await openStore(updated);
    const fresh = await openStore(rebuilt);
    try {
      expect(after.manifest.counts).toEqual(fresh.manifest.counts);
      expect(await rankings(after, 'bm25-rel', fixture.queries)).toEqual(
        await rankings(fresh, 'bm25-rel', fixture.queries),
      );
    } finally {
      await after.close();
      await fresh.close();
    }
  }, 120_000);
});
