import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { runGraphStoreSuite } from '@weft/conformance';
import { WeftError } from '@weft/kit';
import { toySkb } from '@weft/core/test';
import type { GraphStoreV1 } from '@weft/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPostgresGraph, formatPostgresLocation } from './build-postgres-graph.ts';
import { postgresBackend } from './postgres-backend.ts';
import { PostgresGraphStore } from './postgres-graph-store.ts';
import { type PostgresServer, postgresBinDirectory, startPostgres } from './testing/postgres-server.ts';

// A real PostgreSQL, started on 127.0.0.1 by this file; skipped, saying why, where none is installed.
const installed = postgresBinDirectory() !== undefined;
const describePostgres = installed ? describe : (describe.skip.bind(describe) as typeof describe);
const skipNote = installed
  ? ''
  : ' — skipped: PostgreSQL is not installed (Debian: apt-get install postgresql-15)';

let server: PostgresServer | undefined;
beforeAll(async () => {
  if (installed) server = await startPostgres();
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

let schemas = 0;
async function graphOf(skb: ReturnType<typeof toySkb>) {
  const built = await buildPostgresGraph({
    url: `${server!.url}?schema=toy_${++schemas}`,
    schema: skb.schema,
    nodes: skb.nodes,
    edges: skb.edges,
  });
  return PostgresGraphStore.open(formatPostgresLocation(built.location));
}

describePostgres(`PostgreSQL graph store${skipNote}`, () => {
  runGraphStoreSuite({
    name: 'PostgresGraphStore',
    create: (skb) => graphOf(skb),
  });

  describe('beyond the contract', () => {
    let store: PostgresGraphStore;
    beforeAll(async () => {
      const skb = toySkb();
      const nasty = {
        id: 'x:nasty',
        type: 'brand',
        name: 'Nasty, "quoted"',
        aliases: ['a,b', 'c "d"', 'back\\slash {x}'],
        text: 'line1\nline2, "q" \\ back\r\nline3',
        props: { rank: 3, ok: true, tag: 'x' },
      };
      store = await graphOf({ ...skb, nodes: [...skb.nodes, nasty] });
    });
    afterAll(async () => {
      await store?.close();
    });

    it('round-trips quotes, commas, line breaks, backslashes, braces and props through COPY', async () => {
      const [node] = await store.doGetNodes(['x:nasty']);
      expect(node).toEqual({
        id: 'x:nasty',
        type: 'brand',
        name: 'Nasty, "quoted"',
        aliases: ['a,b', 'c "d"', 'back\\slash {x}'],
        text: 'line1\nline2, "q" \\ back\r\nline3',
        props: { rank: 3, ok: true, tag: 'x' },
      });
    });

    it('refuses Cypher with a clear, typed error', async () => {
      expect(store.supportsCypher).toBe(false);
      await expect((store as GraphStoreV1).doCypher('MATCH (n:Node) RETURN n.id')).rejects.toSatisfy(
        (e) => WeftError.is(e, 'WEFT_UNSUPPORTED') && /no Cypher/.test((e as Error).message),
      );
    });

    it('opens read-only: the session refuses writes', async () => {
      const writable = await PostgresGraphStore.open(`${server!.url}?schema=${store.schemaName}`);
      try {
        // Through the store's own connection settings: a write must fail.
        const sql = (writable as unknown as { sql: import('postgres').Sql }).sql;
        await expect(sql.unsafe(`DELETE FROM "${store.schemaName}".nodes`)).rejects.toThrow(/read-only/);
      } finally {
        await writable.close();
      }
    });

    it('a rebuild into the same schema replaces the graph only once complete', async () => {
      const skb = toySkb();
      const url = `${server!.url}?schema=swap`;
      await buildPostgresGraph({ url, schema: skb.schema, nodes: skb.nodes, edges: skb.edges });
      const reader = await PostgresGraphStore.open(url);
      try {
        await expect(
          buildPostgresGraph({
            url,
            schema: skb.schema,
            nodes: skb.nodes,
            edges: [{ src: 'p:q2', dst: 'nope', type: 'made_by' }],
          }),
        ).rejects.toSatisfy((e) => WeftError.is(e, 'WEFT_BAD_INPUT'));
        expect((await reader.doStats()).nodes).toBe(skb.nodes.length);
      } finally {
        await reader.close();
      }
    });
  });

  it('keeps the adjacency and the name index for the next process, under the build, which a rebuild changes', async () => {
    const skb = toySkb();
    const url = `${server!.url}?schema=kept`;
    const cacheDirectory = await mkdtemp(join(os.tmpdir(), 'weft-pg-kept-'));
    const neighboursOf = async (store: PostgresGraphStore) =>
      (await store.doNeighbors({ seeds: ['b:nikon'], direction: 'both' }))
        .map((n) => `${n.edgeType}:${n.direction}:${n.node}`)
        .sort();
    try {
      await buildPostgresGraph({ url, schema: skb.schema, nodes: skb.nodes, edges: skb.edges });
      const first = await PostgresGraphStore.open(url, { cacheDirectory });
      const scanned = await neighboursOf(first);
      const named = await first.doLookup(['Nikon', 'nikkor'], { limit: 3 });
      expect(first.adjacencyInfo?.source).toBe('engine');
      await first.close();
      expect((await readdir(cacheDirectory)).sort()).toEqual(['adjacency.weft-csr', 'names.weft-names']);

      const second = await PostgresGraphStore.open(url, { cacheDirectory });
      try {
        expect(await neighboursOf(second)).toEqual(scanned);
        expect(second.adjacencyInfo?.source).toBe('file');
        expect(await second.doLookup(['Nikon', 'nikkor'], { limit: 3 })).toEqual(named);
      } finally {
        await second.close();
      }

      // Rebuilt without Nikon's lenses: the kept files are of another build and are not read.
      const fewer = skb.edges.filter(
        (e) => !(e.type === 'made_by' && e.dst === 'b:nikon' && e.src !== 'p:d850'),
      );
      await buildPostgresGraph({ url, schema: skb.schema, nodes: skb.nodes, edges: fewer });
      const third = await PostgresGraphStore.open(url, { cacheDirectory });
      try {
        const rescanned = await neighboursOf(third);
        expect(third.adjacencyInfo?.source).toBe('engine');
        expect(rescanned.length).toBeLessThan(scanned.length);
      } finally {
        await third.close();
      }
    } finally {
      await rm(cacheDirectory, { recursive: true, force: true });
    }
  });

  it('postgresBackend needs a server URL, and stores the location without the password', async () => {
    const skb = toySkb();
    await expect(
      postgresBackend.build({ directory: '/nonexistent', schema: skb.schema, nodes: [], edges: [] }),
    ).rejects.toSatisfy((e) => WeftError.is(e, 'WEFT_BAD_INPUT'));
    const withPassword = server!.url.replace('weft@', 'weft:secret@');
    const built = await postgresBackend.build({
      directory: '/nonexistent',
      target: withPassword,
      schema: skb.schema,
      nodes: skb.nodes,
      edges: skb.edges,
    });
    expect(built.location).not.toContain('secret');
    expect(built.location).toMatch(/\?schema=weft_[a-z0-9_]+$/);
    const store = await postgresBackend.open(built.location);
    try {
      expect(store.provider).toBe('postgres');
      expect((await store.doStats()).edges).toBe(skb.edges.length);
    } finally {
      await store.close();
    }
  });
});
