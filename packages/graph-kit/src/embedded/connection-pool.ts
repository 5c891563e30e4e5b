import { toWeftError, WeftError } from '@weft/kit';
import type {
  EmbeddedEngine,
  EngineDatabase,
  EnginePreparedStatement,
  EngineQueryResult,
  EngineValue,
  EngineConnection,
} from './engine.ts';
import { drain } from './query.ts';

/** A connection lent out by the pool, with the statements already prepared on it. */
export interface ConnectionLease {
  readonly connection: EngineConnection;
  readonly statements: Map<string, EnginePreparedStatement>;
}

/**
 * A fixed set of engine connections to one database. A connection runs one query at a time, so
 * concurrent callers each borrow one (`acquire`/`release`, or `withLease`) and queue when all are out.
 * Prepared statements are cached per connection, since the engine binds them to the connection.
 */
export class ConnectionPool {
  private readonly idle: ConnectionLease[] = [];
  private readonly all: ConnectionLease[] = [];
  private readonly waiting: ((lease: ConnectionLease) => void)[] = [];
  private closed = false;

  private readonly label: string;

  constructor(engine: EmbeddedEngine, db: EngineDatabase, connections: number) {
    this.label = engine.label;
    for (let i = 0; i < Math.max(1, connections); i++) {
      const lease = { connection: engine.connect(db), statements: new Map() };
      this.all.push(lease);
      this.idle.push(lease);
    }
  }

  /** How many connections the pool holds. */
  get size(): number {
    return this.all.length;
  }

  acquire(): Promise<ConnectionLease> {
    if (this.closed)
      return Promise.reject(
        new WeftError({ code: 'WEFT_STORE_FAILED', message: 'the graph store is closed' }),
      );
    const lease = this.idle.pop();
    if (lease) return Promise.resolve(lease);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(lease: ConnectionLease): void {
    const next = this.waiting.shift();
    if (next) next(lease);
    else this.idle.push(lease);
  }

  /** Runs `use` with a borrowed connection and gives it back however `use` ends. */
  async withLease<T>(use: (lease: ConnectionLease) => Promise<T>): Promise<T> {
    const lease = await this.acquire();
    try {
      return await use(lease);
    } finally {
      this.release(lease);
    }
  }

  /** The statement prepared on this lease's connection (once; the engine prepares per connection). */
  async prepared(lease: ConnectionLease, statement: string): Promise<EnginePreparedStatement> {
    let prepared = lease.statements.get(statement);
    if (!prepared) {
      prepared = await lease.connection.prepare(statement);
      if (!prepared.isSuccess())
        throw new WeftError({ code: 'WEFT_BAD_INPUT', message: prepared.getErrorMessage() });
      lease.statements.set(statement, prepared);
    }
    return prepared;
  }

  /** Runs one of the store's own statements; every parameter must be given (Kùzu keeps stale bindings). */
  async query(statement: string, params: Record<string, EngineValue>): Promise<Record<string, unknown>[]> {
    return this.withLease(async (lease) => {
      try {
        const prepared = await this.prepared(lease, statement);
        return drain(await lease.connection.execute(prepared, params));
      } catch (error) {
        throw toWeftError(error, 'WEFT_STORE_FAILED', `${this.label} query failed`);
      }
    });
  }

  /** Runs a statement and hands its rows over one at a time (never one array of them all). */
  async each(
    statement: string,
    params: Record<string, EngineValue>,
    onRow: (row: Record<string, unknown>) => void,
  ): Promise<void> {
    await this.withLease(async (lease) => {
      let results: EngineQueryResult[] = [];
      try {
        const prepared = await this.prepared(lease, statement);
        const result = await lease.connection.execute(prepared, params);
        results = Array.isArray(result) ? result : [result];
        for (const one of results) while (one.hasNext()) onRow(one.getNextSync() as Record<string, unknown>);
      } catch (error) {
        throw toWeftError(error, 'WEFT_STORE_FAILED', `${this.label} query failed`);
      } finally {
        for (const one of results) one.close();
      }
    });
  }

  /**
   * Refuses new borrowers, waits for the queries in flight (every connection must come back before
   * the database closes), then closes the connections.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    while (this.idle.length < this.all.length)
      await new Promise<void>((resolve) =>
        this.waiting.push((lease) => {
          this.idle.push(lease);
          resolve();
        }),
      );
    for (const lease of this.all) await lease.connection.close().catch(() => undefined);
  }
}
