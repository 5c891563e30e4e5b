export {
  type BuildKuzuGraphOptions,
  type BuildPhase,
  buildKuzuGraph,
  type KuzuGraphBuild,
} from './build-kuzu-graph.ts';
export {
  type ExpandMetapathOptions,
  expandMetapath,
  type MetapathPath,
  type MetapathStep,
} from './expand-metapath.ts';
export { CsrAdjacency } from './csr-adjacency.ts';
export { databaseFileName } from './kuzu-graph-mapping.ts';
export { KuzuGraphStore, type KuzuGraphStoreOptions } from './kuzu-graph-store.ts';
export { NameIndex } from './name-index.ts';
export { assertReadOnlyCypher } from './read-only-cypher.ts';
