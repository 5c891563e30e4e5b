export {
  freePort,
  type PostgresServer,
  postgresBinDirectory,
  type StartPostgresOptions,
  startPostgres,
  startStandby,
  stopPostgres,
} from './postgres-server.ts';
