export {
  freePort,
  type PostgresServer,
  postgresBinDirectory,
  type StartPostgresOptions,
  startPostgres,
  stopPostgres,
} from './postgres-server.ts';
