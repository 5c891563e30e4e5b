export {
  type BuildKuzuGraphOptions,
  type BuildPhase,
  buildKuzuGraph,
  type KuzuGraphBuild,
} from './build-kuzu-graph.ts';
export { kuzuBackend } from './kuzu-backend.ts';
export { databaseFileName, kuzuEngine } from './kuzu-engine.ts';
export { KuzuGraphStore, type KuzuGraphStoreOptions } from './kuzu-graph-store.ts';
// Engine-independent parts, now in @weft/graph-kit; re-exported for existing imports.
export {
  CsrAdjacency,
  type ExpandMetapathOptions,
  expandMetapath,
  type MetapathPath,
  type MetapathStep,
  NameIndex,
  assertReadOnlyCypher,
} from '@weft/graph-kit';
