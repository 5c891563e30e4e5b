import { EmbeddedGraphStore, type EmbeddedGraphStoreOptions } from '@weft/graph-kit';
import { type LadybugEngineOptions, ladybugEngine } from './ladybug-engine.ts';

export interface LadybugGraphStoreOptions extends EmbeddedGraphStoreOptions, LadybugEngineOptions {}

/**
 * The Weft graph store on embedded LadybugDB. Open a graph built by `buildLadybugGraph` with
 * `LadybugGraphStore.open(directory)`; it is read-only by default. The store itself is
 * `EmbeddedGraphStore` of `@weft/graph-kit`, shared with Kùzu.
 */
export class LadybugGraphStore extends EmbeddedGraphStore {
  /** Opens the graph in `directory` (or the database file itself). */
  static async open(directory: string, options: LadybugGraphStoreOptions = {}): Promise<LadybugGraphStore> {
    const engine = ladybugEngine(options);
    return EmbeddedGraphStore.openWith(
      engine,
      directory,
      options,
      (path, db) => new LadybugGraphStore(engine, path, db, options),
    );
  }
}
