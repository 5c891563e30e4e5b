/**
 * A PostgreSQL for developers (`./dev postgres start | stop | url`): one cluster in
 * `<repo>/.cache/postgres`, on 127.0.0.1:$WEFT_PG_PORT (default 54329), trust authentication,
 * superuser `weft`. Then: `weft ingest <bundle> --db <dir> --graph "$(./dev postgres url)"`.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { postgresBinDirectory, startPostgres, stopPostgres } from '../src/testing/postgres-server.ts';

const root = resolve(import.meta.dirname, '..', '..', '..');
const dataDirectory = join(root, '.cache', 'postgres');
const port = Number(process.env.WEFT_PG_PORT ?? 54329);
const url = `postgres://weft@127.0.0.1:${port}/postgres`;
const command = process.argv[2] ?? 'url';

if (!postgresBinDirectory()) {
  console.error('PostgreSQL is not installed (Debian: sudo apt-get install postgresql-15)');
  process.exit(1);
}
if (command === 'start') {
  if (existsSync(join(dataDirectory, 'postmaster.pid'))) console.error(`already running (${dataDirectory})`);
  else await startPostgres({ dataDirectory, port });
  console.log(url);
} else if (command === 'stop') {
  await stopPostgres(dataDirectory);
  console.error('stopped');
} else if (command === 'url') {
  console.log(url);
} else {
  console.error('usage: ./dev postgres start | stop | url');
  process.exit(2);
}
