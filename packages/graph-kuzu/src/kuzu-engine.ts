import type { EmbeddedEngine, EngineConnection, EngineDatabase } from '@weft/graph-kit';
import kuzu from 'kuzu';

/** The database file inside a graph directory. */
export const databaseFileName = 'graph.kuzu';

/** Kùzu 0.11.3 (`kuzu` on npm) as a Kùzu-API engine of `@weft/graph-kit`. */
export const kuzuEngine: EmbeddedEngine = {
  id: 'kuzu',
  label: 'Kùzu',
  databaseFileName,
  openDatabase(path, { readOnly, bufferPoolSize }) {
    // The build opens with Kùzu's defaults (its buffer pool then is most of the machine's RAM).
    return bufferPoolSize === undefined && !readOnly
      ? new kuzu.Database(path)
      : new kuzu.Database(path, bufferPoolSize ?? 0, true, readOnly);
  },
  connect(database: EngineDatabase): EngineConnection {
    return new kuzu.Connection(database as kuzu.Database) as unknown as EngineConnection;
  },
};
