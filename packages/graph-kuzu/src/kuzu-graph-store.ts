import { EmbeddedGraphStore, type EmbeddedGraphStoreOptions } from '@weft/graph-kit';
import { kuzuEngine } from './kuzu-engine.ts';

export type KuzuGraphStoreOptions = EmbeddedGraphStoreOptions;

/**
 * The Weft graph store on embedded Kùzu. Open a graph built by `buildKuzuGraph` with
 * `KuzuGraphStore.open(directory)`; it is read-only by default. The store itself is
 * `EmbeddedGraphStore` of `@weft/graph-kit`, shared with LadybugDB.
 */
export class KuzuGraphStore extends EmbeddedGraphStore {
  /** Opens the graph in `directory` (or the database file itself). */
  static async open(directory: string, options: KuzuGraphStoreOptions = {}): Promise<KuzuGraphStore> {
    return EmbeddedGraphStore.openWith(
      kuzuEngine,
      directory,
      options,
      (path, db) => new KuzuGraphStore(kuzuEngine, path, db, options),
    );
  }
}
