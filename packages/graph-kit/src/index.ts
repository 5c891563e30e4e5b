export {
  type AdjacencyStatements,
  CsrAdjacency,
  type CsrNeighborsOptions,
  cypherAdjacencyStatements,
  type RowReader,
} from './csr-adjacency.ts';
export { CsvFileWriter, csvField } from './csv-file-writer.ts';
export {
  type ExpandMetapathOptions,
  expandMetapath,
  type MetapathPath,
  type MetapathStep,
} from './expand-metapath.ts';
export { NameIndex, type NameIndexEntry, type NameLookupOptions } from './name-index.ts';
export { NodeCache } from './node-cache.ts';
// The one read-only Cypher guard is the kit's; re-exported for the stores' existing imports.
export { assertReadOnlyCypher } from '@weft/kit';
// Kùzu-API engines (Kùzu, LadybugDB): one store and one bulk build, given the engine.
export {
  type BuildEmbeddedGraphOptions,
  type BuildPhase,
  buildEmbeddedGraph,
  type EmbeddedGraphBuild,
} from './embedded/build-embedded-graph.ts';
export {
  type UpdateEmbeddedGraphOptions,
  updateEmbeddedGraph,
} from './embedded/update-embedded-graph.ts';
export { openEmbeddedGraphForUpdate } from './embedded/update-in-place.ts';
export { type ConnectionLease, ConnectionPool } from './embedded/connection-pool.ts';
export { embeddedGraphBackend, embeddedGraphFolder } from './embedded/embedded-backend.ts';
export { readAdjacencyFile, writeAdjacencyFile } from './csr-adjacency-file.ts';
export { readNameIndexFile, writeNameIndexFile } from './name-index-file.ts';
export { EmbeddedGraphStore, type EmbeddedGraphStoreOptions } from './embedded/embedded-graph-store.ts';
export {
  adjacencyFileName,
  type KeepPlace,
  KeptStructures,
  nameIndexFileName,
  type StructureScans,
} from './kept-structures.ts';
export type {
  EmbeddedDatabaseOptions,
  EmbeddedEngine,
  EngineConnection,
  EngineDatabase,
  EnginePreparedStatement,
  EngineQueryResult,
  EngineValue,
} from './embedded/engine.ts';
export { degreeSummary, embeddedGraphStats } from './embedded/graph-stats.ts';
export { aliasSeparator } from './embedded/mapping.ts';
