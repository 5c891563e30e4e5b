import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryGraphStore, toySkb } from '@weft/core/test';
import { type PostgresServer, postgresBinDirectory, startPostgres } from '@weft/graph-postgres/testing';
import { writeBundle } from '@weft/skb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStore } from './build-store.ts';
import { openStore } from './open-store.ts';

// A real PostgreSQL on 127.0.0.1, started here; skipped, saying why, where none is installed.
const installed = postgresBinDirectory() !== undefined;
const suite = installed ? describe : describe.skip;

suite(`a store whose graph is on PostgreSQL (--graph postgres://…)${installed ? '' : ' — skipped: PostgreSQL is not installed (Debian: apt-get install postgresql-15)'}`, () => {
  let server: PostgresServer;
  let root: string;
  beforeAll(async () => {
    server = await startPostgres();
    root = await mkdtemp(join(tmpdir(), 'weft-store-postgres-'));
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('keeps the indexes in the directory, the graph on the server, and opens both', async () => {
    const bundle = join(root, 'bundle');
    await writeBundle(bundle, toySkb());
    const directory = join(root, 'store');
    const url = server.url.replace('weft@', 'weft:not-written@');
    const built = await buildStore({ bundle, directory, graph: `${url}?schema=toy` });
    expect(built.manifest.graph).toEqual({ provider: 'postgres', path: `${server.url}?schema=toy` });
    const store = await openStore(directory);
    try {
      expect(store.graph.provider).toBe('postgres');
      expect(await store.graph.doStats()).toEqual(await new InMemoryGraphStore(toySkb()).doStats());
      const hits = await store.context.text.doSearch({ queries: ['Leica'], limit: 3 });
      expect(hits[0]!.length).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  });
});
