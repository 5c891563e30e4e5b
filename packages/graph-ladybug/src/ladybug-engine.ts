import type lbugModule from '@ladybugdb/core';
import { WeftError } from '@weft/kit';
import type { EmbeddedEngine, EngineConnection, EngineDatabase } from '@weft/graph-kit';

/** The database file inside a graph directory. */
export const databaseFileName = 'graph.lbug';

/**
 * The most a database file may grow to (LadybugDB's `maxDBSize`), default 64 GiB. LadybugDB, like
 * Kùzu, reserves this much virtual address space per open database, and its own default is 8 TiB:
 * a process that opens a few stores (or runs beside LanceDB) under a capped address space
 * (`ulimit -v`, some containers) then fails to open them. 64 GiB holds a 10^7-edge graph many times.
 */
export const defaultMaxDatabaseBytes = 2 ** 36;

export interface LadybugEngineOptions {
  /** `maxDBSize` of LadybugDB in bytes (default `defaultMaxDatabaseBytes`). */
  readonly maxDatabaseBytes?: number;
}

let lbug: typeof lbugModule | undefined;

function loaded(): typeof lbugModule {
  if (!lbug)
    throw new WeftError({
      code: 'WEFT_STORE_FAILED',
      message: 'LadybugDB is not loaded: await engine.load() first',
    });
  return lbug;
}

/**
 * LadybugDB (`@ladybugdb/core` on npm), Kùzu's maintained fork, as a Kùzu-API engine of
 * `@weft/graph-kit`. Its native module is loaded on first use (`load`), not when this package is imported.
 */
export function ladybugEngine(options: LadybugEngineOptions = {}): EmbeddedEngine {
  const maxDatabaseBytes = options.maxDatabaseBytes ?? defaultMaxDatabaseBytes;
  return {
    id: 'ladybug',
    label: 'LadybugDB',
    databaseFileName,
    async load() {
      lbug ??= (await import('@ladybugdb/core')).default;
    },
    openDatabase(path, { readOnly, bufferPoolSize }) {
      // 0 = LadybugDB's default buffer pool (most of the machine's RAM), as in Kùzu.
      return new (loaded().Database)(path, bufferPoolSize ?? 0, true, readOnly, maxDatabaseBytes);
    },
    connect(database: EngineDatabase): EngineConnection {
      return new (loaded().Connection)(database as lbugModule.Database) as unknown as EngineConnection;
    },
  };
}
