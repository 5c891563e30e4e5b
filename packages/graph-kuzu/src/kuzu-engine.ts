import { WeftError } from '@weft/kit';
import type { EmbeddedEngine, EngineConnection, EngineDatabase } from '@weft/graph-kit';
import type kuzuModule from 'kuzu';

/** The database file inside a graph directory. */
export const databaseFileName = 'graph.kuzu';

let kuzu: typeof kuzuModule | undefined;

function loaded(): typeof kuzuModule {
  if (!kuzu)
    throw new WeftError({
      code: 'WEFT_STORE_FAILED',
      message: 'Kùzu is not loaded: await kuzuEngine.load() first',
    });
  return kuzu;
}

/**
 * Kùzu 0.11.3 (`kuzu` on npm) as a Kùzu-API engine of `@weft/graph-kit`. Its native module is loaded
 * on first use (`load`), not when this package is imported.
 */
export const kuzuEngine: EmbeddedEngine = {
  id: 'kuzu',
  label: 'Kùzu',
  databaseFileName,
  async load() {
    kuzu ??= (await import('kuzu')).default;
  },
  openDatabase(path, { readOnly, bufferPoolSize }) {
    const kuzu = loaded();
    // The build opens with Kùzu's defaults (its buffer pool then is most of the machine's RAM).
    return bufferPoolSize === undefined && !readOnly
      ? new kuzu.Database(path)
      : new kuzu.Database(path, bufferPoolSize ?? 0, true, readOnly);
  },
  connect(database: EngineDatabase): EngineConnection {
    return new (loaded().Connection)(database as kuzuModule.Database) as unknown as EngineConnection;
  },
};
