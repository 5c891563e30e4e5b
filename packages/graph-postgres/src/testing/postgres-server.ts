import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A PostgreSQL server on 127.0.0.1 started for a test or a developer; `stop()` stops it and removes its data. */
export interface PostgresServer {
  /** `postgres://weft@127.0.0.1:<port>/postgres` (trust authentication, loopback only). */
  readonly url: string;
  readonly port: number;
  readonly dataDirectory: string;
  stop(): Promise<void>;
}

/**
 * The folder of PostgreSQL's server programs (`initdb`, `pg_ctl`): `$WEFT_PG_BIN`, else Debian's
 * newest `/usr/lib/postgresql/<major>/bin`, else `pg_config --bindir`; undefined when none is installed.
 */
export function postgresBinDirectory(): string | undefined {
  const candidates = [
    process.env.WEFT_PG_BIN,
    ...['17', '16', '15', '14'].map((major) => `/usr/lib/postgresql/${major}/bin`),
  ];
  for (const candidate of candidates)
    if (candidate && existsSync(join(candidate, 'initdb')) && existsSync(join(candidate, 'pg_ctl')))
      return candidate;
  try {
    const bindir = execFileSync('pg_config', ['--bindir'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    if (existsSync(join(bindir, 'initdb'))) return bindir;
  } catch {}
  return undefined;
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** PostgreSQL refuses to run as root: as root, its programs run as `postgres` (or `nobody`). */
function runAs(): { user: string; uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const user of ['postgres', 'nobody']) {
    try {
      const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
      return { user, uid, gid };
    } catch {}
  }
  throw new Error('running as root and there is no postgres or nobody user to run PostgreSQL as');
}

async function pg(bin: string, program: string, args: string[]): Promise<void> {
  const as = runAs();
  const command = as ? 'runuser' : join(bin, program);
  const argv = as ? ['-u', as.user, '--', join(bin, program), ...args] : args;
  await run(command, argv, { cwd: tmpdir() });
}

export interface StartPostgresOptions {
  /** Default: a free port. */
  readonly port?: number;
  /**
   * Where the cluster goes (default: a new temp folder, removed by `stop`). A folder that already
   * holds a cluster is started as it is (and kept by `stop`).
   */
  readonly dataDirectory?: string;
  /** Extra `postgres -c` settings, e.g. `{ wal_level: 'replica' }`. */
  readonly settings?: Readonly<Record<string, string>>;
}

/**
 * Creates a throw-away cluster (`initdb`, trust authentication, superuser `weft`) and starts it on
 * 127.0.0.1, tuned for tests (no fsync). Needs PostgreSQL's server programs (Debian:
 * `apt-get install postgresql-15`); see `postgresBinDirectory`.
 */
/** Stops the cluster in `dataDirectory` (fast shutdown); nothing when none runs there. */
export async function stopPostgres(dataDirectory: string): Promise<void> {
  const bin = postgresBinDirectory();
  if (bin && existsSync(join(dataDirectory, 'postmaster.pid')))
    await pg(bin, 'pg_ctl', ['-D', dataDirectory, '-m', 'fast', '-w', 'stop']);
}

export async function startPostgres(options: StartPostgresOptions = {}): Promise<PostgresServer> {
  const bin = postgresBinDirectory();
  if (!bin) throw new Error('PostgreSQL is not installed (Debian: apt-get install postgresql-15)');
  const root = options.dataDirectory ? undefined : await mkdtemp(join(tmpdir(), 'weft-pg-'));
  const dataDirectory = options.dataDirectory ?? join(root!, 'data');
  const as = runAs();
  if (as && root) chownSync(root, as.uid, as.gid);
  if (as && !root && !existsSync(dataDirectory)) {
    await mkdir(dataDirectory, { recursive: true, mode: 0o700 });
    chownSync(dataDirectory, as.uid, as.gid);
  }
  const port = options.port ?? (await freePort());
  if (!existsSync(join(dataDirectory, 'PG_VERSION')))
    await pg(bin, 'initdb', [
      '-D',
      dataDirectory,
      '-A',
      'trust',
      '-U',
      'weft',
      '-E',
      'UTF8',
      '--no-sync',
      '--locale=C',
    ]);
  const settings: Record<string, string> = {
    listen_addresses: '127.0.0.1',
    port: String(port),
    unix_socket_directories: dataDirectory,
    fsync: 'off',
    synchronous_commit: 'off',
    full_page_writes: 'off',
    ...options.settings,
  };
  const serverOptions = Object.entries(settings)
    .map(([key, value]) => `-c ${key}=${value}`)
    .join(' ');
  await pg(bin, 'pg_ctl', [
    '-D',
    dataDirectory,
    '-o',
    serverOptions,
    '-l',
    join(dataDirectory, 'server.log'),
    '-w',
    'start',
  ]);
  let stopped = false;
  return {
    url: `postgres://weft@127.0.0.1:${port}/postgres`,
    port,
    dataDirectory,
    async stop() {
      if (stopped) return;
      stopped = true;
      await pg(bin, 'pg_ctl', ['-D', dataDirectory, '-m', 'fast', '-w', 'stop']).catch(() => undefined);
      if (root) await rm(root, { recursive: true, force: true });
    },
  };
}

/**
 * Starts a streaming hot-standby replica of `primary` on 127.0.0.1 (`pg_basebackup -R`, a free
 * port): read-only, it replays what the primary writes. `stop()` stops it and removes its data.
 */
export async function startStandby(primary: PostgresServer): Promise<PostgresServer> {
  const bin = postgresBinDirectory();
  if (!bin) throw new Error('PostgreSQL is not installed (Debian: apt-get install postgresql-15)');
  const root = await mkdtemp(join(tmpdir(), 'weft-pg-standby-'));
  const as = runAs();
  if (as) chownSync(root, as.uid, as.gid);
  const dataDirectory = join(root, 'data');
  await pg(bin, 'pg_basebackup', [
    '-h',
    '127.0.0.1',
    '-p',
    String(primary.port),
    '-U',
    'weft',
    '-D',
    dataDirectory,
    '-R',
    '-X',
    'stream',
    // A spread checkpoint would wait up to checkpoint_timeout × 0.9 (4.5 min) on a busy primary.
    '--checkpoint=fast',
    '--no-sync',
  ]);
  // The copy holds the primary's pid file and log: neither belongs to the standby.
  await rm(join(dataDirectory, 'postmaster.pid'), { force: true });
  const standby = await startPostgres({ dataDirectory, settings: { hot_standby: 'on' } });
  return {
    ...standby,
    async stop() {
      await standby.stop();
      await rm(root, { recursive: true, force: true });
    },
  };
}
