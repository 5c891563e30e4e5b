export {
  type BuildLadybugGraphOptions,
  buildLadybugGraph,
  type LadybugGraphBuild,
} from './build-ladybug-graph.ts';
export { ladybugBackend } from './ladybug-backend.ts';
export {
  databaseFileName,
  defaultMaxDatabaseBytes,
  type LadybugEngineOptions,
  ladybugEngine,
} from './ladybug-engine.ts';
export { LadybugGraphStore, type LadybugGraphStoreOptions } from './ladybug-graph-store.ts';
