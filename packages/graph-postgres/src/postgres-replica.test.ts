import { toySkb } from '@weft/core/test';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPostgresGraph } from './build-postgres-graph.ts';
import { PostgresGraphStore } from './postgres-graph-store.ts';
import {
  type PostgresServer,
  postgresBinDirectory,
  startPostgres,
  startStandby,
} from './testing/postgres-server.ts';

// A primary and a streaming hot-standby replica on 127.0.0.1, both started by this file; skipped,
// saying why, where PostgreSQL is not installed.
const installed = postgresBinDirectory() !== undefined;
const suite = installed ? describe : describe.skip;

/** Waits until the standby has replayed everything the primary had written when this was called. */
async function caughtUp(primary: PostgresServer, standby: PostgresServer): Promise<void> {
  const p = postgres(primary.url, { max: 1, onnotice: () => {} });
  const s = postgres(standby.url, { max: 1, onnotice: () => {} });
  try {
    const [{ lsn }] = (await p`SELECT pg_current_wal_lsn()::text AS lsn`) as unknown as [{ lsn: string }];
    for (let i = 0; i < 600; i++) {
      const [{ behind }] =
        (await s`SELECT pg_last_wal_replay_lsn() < ${lsn}::pg_lsn AS behind`) as unknown as [
          { behind: boolean },
        ];
      if (!behind) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the standby did not catch up within 60 s');
  } finally {
    await p.end();
    await s.end();
  }
}

suite(`PostgreSQL graph on a streaming hot-standby replica${installed ? '' : ' — skipped: PostgreSQL is not installed (Debian: apt-get install postgresql-15)'}`, () => {
  let primary: PostgresServer;
  let standby: PostgresServer;
  const skb = toySkb();
  beforeAll(async () => {
    primary = await startPostgres();
    await buildPostgresGraph({
      url: `${primary.url}?schema=kb`,
      schema: skb.schema,
      nodes: skb.nodes,
      edges: skb.edges,
    });
    standby = await startStandby(primary);
    await caughtUp(primary, standby);
  }, 180_000);
  afterAll(async () => {
    await standby?.stop();
    await primary?.stop();
  });

  it('answers from the replica exactly as from the primary', async () => {
    const onPrimary = await PostgresGraphStore.open(`${primary.url}?schema=kb`);
    const onStandby = await PostgresGraphStore.open(`${standby.url}?schema=kb`);
    try {
      expect(await onStandby.doStats()).toEqual(await onPrimary.doStats());
      const seeds = skb.nodes.map((n) => n.id);
      expect(await onStandby.doNeighbors({ seeds, direction: 'both' })).toEqual(
        await onPrimary.doNeighbors({ seeds, direction: 'both' }),
      );
      expect(await onStandby.doLookup(['Leica Q2', 'nikkon', 'Leitz'])).toEqual(
        await onPrimary.doLookup(['Leica Q2', 'nikkon', 'Leitz']),
      );
      expect(await onStandby.doGetNodes(seeds)).toEqual(await onPrimary.doGetNodes(seeds));
    } finally {
      await onPrimary.close();
      await onStandby.close();
    }
  });

  it('the replica refuses writes', async () => {
    const sql = postgres(standby.url, { max: 1, onnotice: () => {} });
    try {
      await expect(sql`DELETE FROM kb.nodes`).rejects.toThrow(/read-only/);
    } finally {
      await sql.end();
    }
  });

  it('is consistent once it catches up with a rebuild on the primary', async () => {
    const reader = await PostgresGraphStore.open(`${standby.url}?schema=kb`);
    const extra = { id: 'b:pentax', type: 'brand', name: 'Pentax', text: 'a camera maker' };
    try {
      const before = await reader.doStats();
      // A rebuild swaps the schema in one transaction on the primary…
      await buildPostgresGraph({
        url: `${primary.url}?schema=kb`,
        schema: skb.schema,
        nodes: [...skb.nodes, extra],
        edges: skb.edges,
      });
      await caughtUp(primary, standby);
      // …so a store opened on the replica afterwards sees the whole new graph, never half of it.
      const after = await PostgresGraphStore.open(`${standby.url}?schema=kb`);
      try {
        const stats = await after.doStats();
        expect(stats.nodes).toBe(before.nodes + 1);
        expect(stats.nodesByType.brand).toBe((before.nodesByType.brand ?? 0) + 1);
        expect((await after.doGetNodes(['b:pentax']))[0]?.name).toBe('Pentax');
      } finally {
        await after.close();
      }
    } finally {
      await reader.close();
    }
  });
});
