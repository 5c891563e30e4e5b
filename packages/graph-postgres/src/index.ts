export {
  type BuildPostgresGraphOptions,
  buildPostgresGraph,
  type PostgresBuildPhase,
  type PostgresGraphBuild,
} from './build-postgres-graph.ts';
export { postgresBackend } from './postgres-backend.ts';
export { PostgresGraphStore, type PostgresGraphStoreOptions } from './postgres-graph-store.ts';
export { formatPostgresLocation, type PostgresLocation, parsePostgresLocation } from './postgres-location.ts';
