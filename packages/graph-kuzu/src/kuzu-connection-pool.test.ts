import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WeftError } from '@weft/kit';
import { InMemoryGraphStore, toySkb } from '@weft/core/test';
import kuzu from 'kuzu';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildKuzuGraph } from './build-kuzu-graph.ts';
import { ConnectionPool, embeddedGraphStats } from '@weft/graph-kit';
import { databaseFileName, kuzuEngine } from './kuzu-engine.ts';

describe('KuzuConnectionPool', () => {
  let root: string;
  let db: kuzu.Database;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'weft-kuzu-pool-'));
    const skb = toySkb();
    await buildKuzuGraph({ directory: join(root, 'graph'), ...skb });
    await kuzuEngine.load();
    db = new kuzu.Database(join(root, 'graph', databaseFileName), 1 << 27, true, true);
    await db.init();
  });
  afterAll(async () => {
    await db?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('queues callers beyond its connections and answers each of them', async () => {
    const pool = new ConnectionPool(kuzuEngine, db, 1);
    expect(pool.size).toBe(1);
    const statement = 'MATCH (n:Node) WHERE n.id = $id RETURN n.name AS name';
    const ids = ['p:d850', 'b:nikon', 'c:dslr', 'p:q2'];
    const names = await Promise.all(ids.map((id) => pool.query(statement, { id })));
    expect(names.map((rows) => rows[0]?.name)).toEqual(['Nikon D850', 'Nikon', 'DSLR cameras', 'Leica Q2']);
    const streamed: string[] = [];
    await pool.each('MATCH (n:Node) RETURN n.id AS id ORDER BY id', {}, (row) =>
      streamed.push(row.id as string),
    );
    expect(streamed).toHaveLength(toySkb().nodes.length);
    await pool.close();
  });

  it('waits for the queries in flight on close, then refuses new ones', async () => {
    const pool = new ConnectionPool(kuzuEngine, db, 2);
    const lease = await pool.acquire();
    let closed = false;
    const closing = pool.close().then(() => {
      closed = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(closed).toBe(false);
    pool.release(lease);
    await closing;
    expect(closed).toBe(true);
    await expect(pool.query('MATCH (n:Node) RETURN count(*) AS c', {})).rejects.toSatisfy(
      (error) => WeftError.is(error) && error.code === 'WEFT_STORE_FAILED',
    );
  });

  it('wraps a failing statement into a typed error and gives the connection back', async () => {
    const pool = new ConnectionPool(kuzuEngine, db, 1);
    await expect(pool.query('MATCH (n:Nope) RETURN n', {})).rejects.toSatisfy((error) => WeftError.is(error));
    expect((await pool.query('MATCH (n:Node) RETURN count(*) AS c', {}))[0]?.c).toBe(toySkb().nodes.length);
    await pool.close();
  });

  it('computes the same statistics as the reference store', async () => {
    const pool = new ConnectionPool(kuzuEngine, db, 2);
    expect(await embeddedGraphStats(pool)).toEqual(await new InMemoryGraphStore(toySkb()).doStats());
    await pool.close();
  });
});
