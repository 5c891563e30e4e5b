export {
  freePort,
  type PostgresServer,
  postgresBinDirectory,
  type StartPostgresOptions,
  startPostgres,
} from './postgres-server.ts';
