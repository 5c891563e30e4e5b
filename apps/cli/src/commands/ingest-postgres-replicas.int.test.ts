// Past one machine, on loopback: the graph on a PostgreSQL primary (`weft ingest --graph postgres://…`)
// with a streaming hot-standby replica, the text and vector indexes in an S3 bucket (s3rver,
// `--indexes s3://…`), three `weft serve` replicas reading the standby and the bucket, and Debian's
// nginx balancing them. A bounded load (3 × 32 clients × 20 queries) must return the serial answers,
// also when one serve replica is killed mid-test (clients retry what failed). Skipped, saying why,
// where PostgreSQL or nginx is not installed.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { wordnetBundle } from '@weft-dev/test-data';
import {
  freePort,
  type PostgresServer,
  postgresBinDirectory,
  startPostgres,
  startStandby,
} from '@weft/graph-postgres/testing';
import postgres from 'postgres';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const mainScript = join(dirname(fileURLToPath(import.meta.url)), '..', 'main.ts');
const nodeArgs = ['--conditions=@weft/source', '--disable-warning=ExperimentalWarning', mainScript];
const nginx = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((path) => existsSync(path));
const missing = [
  ...(postgresBinDirectory() ? [] : ['PostgreSQL (apt-get install postgresql-15)']),
  ...(nginx ? [] : ['nginx (apt-get install nginx-light)']),
];
const suite = missing.length === 0 ? describe : describe.skip;

const groups = 3;
const clientsPerGroup = 32;
const queriesPerClient = 20;

/** Waits until the standby has replayed what the primary had written when this was called. */
async function caughtUp(primary: PostgresServer, standby: PostgresServer): Promise<void> {
  const p = postgres(primary.url, { max: 1, onnotice: () => {} });
  const s = postgres(standby.url, { max: 1, onnotice: () => {} });
  try {
    const [row] = await p`SELECT pg_current_wal_lsn()::text AS lsn`;
    for (let i = 0; i < 600; i++) {
      const [state] = await s`SELECT pg_last_wal_replay_lsn() >= ${row!.lsn}::pg_lsn AS done`;
      if (state!.done) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the standby did not catch up within 60 s');
  } finally {
    await p.end();
    await s.end();
  }
}

/** s3rver checks request signatures against this one key pair; the replicas get it from the environment. */
const s3Credentials = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };

/**
 * Starts `weft serve` on a free port; resolves once it listens. Its per-request timeout stays under
 * nginx's `proxy_read_timeout` (180 s): at the default 30 s, a busy machine's slow query came back
 * 504, which nginx does not retry, and five of them in a row failed the test.
 */
async function serve(db: string): Promise<{ url: string; child: ChildProcess }> {
  const args = ['serve', '--db', db, '--port', '0', '--timeout-ms', '170000', '--json'];
  const child = spawn(process.execPath, [...nodeArgs, ...args], {
    stdio: ['ignore', 'pipe', 'ignore'],
    env: { ...process.env, ...s3Credentials },
  });
  const lines = createInterface({ input: child.stdout! });
  const [line] = (await once(lines, 'line')) as [string];
  return { url: (JSON.parse(line) as { url: string }).url, child };
}

interface Answer {
  results: { id: string; score: number }[];
}

async function query(base: string, text: string): Promise<string> {
  const response = await fetch(`${base}/query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: text, stack: 'default', limit: 20 }),
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const answer = (await response.json()) as Answer;
  return JSON.stringify(answer.results.map((r) => [r.id, r.score]));
}

suite(`weft serve × 3 behind nginx, on a PostgreSQL hot standby and an S3 bucket${missing.length ? ` — skipped: needs ${missing.join(' and ')}` : ''}`, () => {
  let root: string;
  let primary: PostgresServer;
  let standby: PostgresServer;
  let bucket: S3rver | undefined;
  const servers: { url: string; child: ChildProcess }[] = [];
  let balancer: ChildProcess | undefined;
  let balancerUrl: string;
  let queries: string[];
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'weft-replicas-'));
    const bundle = await wordnetBundle();
    queries = (await readFile(join(bundle, 'queries', 'demo.jsonl'), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { query: string }).query);
    primary = await startPostgres();
    bucket = new S3rver({
      address: '127.0.0.1',
      port: 0,
      directory: join(root, 's3rver'),
      silent: true,
      configureBuckets: [{ name: 'weft' }],
    });
    const endpoint = `http://127.0.0.1:${(await bucket.run()).port}`;
    const built = join(root, 'built');
    const { stdout } = await run(
      process.execPath,
      [
        ...nodeArgs,
        'ingest',
        bundle,
        '--db',
        built,
        '--graph',
        `${primary.url}?schema=wordnet`,
        '--indexes',
        's3://weft/wordnet',
        '--indexes-option',
        `endpoint=${endpoint}`,
        '--indexes-option',
        'allow_http=true',
        '--indexes-option',
        'region=us-east-1',
        '--json',
      ],
      { maxBuffer: 16 << 20, env: { ...process.env, ...s3Credentials } },
    );
    expect(JSON.parse(stdout).graph).toEqual({ provider: 'postgres', path: `${primary.url}?schema=wordnet` });
    expect(JSON.parse(stdout).indexes.text.path).toBe('s3://weft/wordnet');
    standby = await startStandby(primary);
    await caughtUp(primary, standby);
    // The serve replicas' store: the same indexes (in the bucket), the graph read from the standby.
    const replicaStore = join(root, 'replica-store');
    await cp(built, replicaStore, { recursive: true });
    const manifest = JSON.parse(await readFile(join(replicaStore, 'store.json'), 'utf8'));
    await writeFile(
      join(replicaStore, 'store.json'),
      JSON.stringify({ ...manifest, graph: { provider: 'postgres', path: `${standby.url}?schema=wordnet` } }),
    );
    for (let i = 0; i < 3; i++) servers.push(await serve(replicaStore));
    const port = await freePort();
    const conf = join(root, 'nginx');
    await mkdir(conf);
    await writeFile(
      join(conf, 'nginx.conf'),
      [
        ...(process.getuid?.() === 0 ? ['user root;'] : []),
        'worker_processes 1;',
        `pid ${conf}/nginx.pid;`,
        `error_log ${conf}/error.log;`,
        'events { worker_connections 1024; }',
        'http {',
        '  access_log off;',
        ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${conf}/${t};`),
        '  upstream weft {',
        ...servers.map((s) => `    server ${new URL(s.url).host} max_fails=1 fail_timeout=30s;`),
        '  }',
        '  server {',
        `    listen 127.0.0.1:${port};`,
        '    location / {',
        '      proxy_pass http://weft;',
        '      proxy_http_version 1.1;',
        '      proxy_set_header Connection "";',
        // Each query reads LanceDB's files from s3rver (one Node process for all 96 clients): on a
        // busy 2-core machine one can wait past a minute, and a 504 would cost a retry of it.
        '      proxy_read_timeout 180s;',
        '      proxy_next_upstream error timeout http_502 http_503 non_idempotent;', // POST /query only reads
        '      proxy_next_upstream_tries 3;',
        '    }',
        '  }',
        '}',
      ].join('\n'),
    );
    balancer = spawn(nginx!, ['-p', conf, '-c', join(conf, 'nginx.conf'), '-g', 'daemon off;'], {
      stdio: 'ignore',
    });
    balancerUrl = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 100; i++) {
      if (
        await fetch(`${balancerUrl}/health`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 900_000);
  afterAll(async () => {
    balancer?.kill('SIGTERM');
    for (const server of servers) server.child.kill('SIGTERM');
    // Graceful stops; the replica the test killed has exited already.
    await Promise.all(
      servers.map((s) =>
        s.child.exitCode === null && s.child.signalCode === null ? once(s.child, 'exit') : undefined,
      ),
    );
    await standby?.stop();
    await primary?.stop();
    await bucket?.close();
    if (root) await rm(root, { recursive: true, force: true });
  }, 120_000);

  it('answers 3 × 32 clients × 20 queries as serially, and loses none when a replica is killed', async () => {
    const serial = new Map<string, string>();
    for (const text of queries) serial.set(text, await query(servers[0]!.url, text));
    let done = 0;
    let retries = 0;
    let killed = false;
    const total = groups * clientsPerGroup * queriesPerClient;
    const client = async (group: number, index: number) => {
      const answers: [string, string][] = [];
      for (let q = 0; q < queriesPerClient; q++) {
        const text = queries[(group * clientsPerGroup + index + q) % queries.length]!;
        for (let attempt = 1; ; attempt++) {
          try {
            answers.push([text, await query(balancerUrl, text)]);
            break;
          } catch (error) {
            if (attempt >= 5) throw error;
            retries++;
            await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
          }
        }
        done++;
        // A third of the way through, one serve replica dies without warning.
        if (!killed && done >= total / 3) {
          killed = true;
          servers[1]!.child.kill('SIGKILL');
        }
      }
      return answers;
    };
    const answered = (
      await Promise.all(
        Array.from({ length: groups * clientsPerGroup }, (_, i) =>
          client(Math.floor(i / clientsPerGroup), i % clientsPerGroup),
        ),
      )
    ).flat();
    expect(killed).toBe(true);
    expect(answered).toHaveLength(total);
    const wrong = answered.filter(([text, answer]) => serial.get(text) !== answer);
    expect(wrong.map(([text]) => text)).toEqual([]);
    console.log(
      `replicas: ${total} answers through nginx, equal to the serial ones; ${retries} client retries`,
    );
  }, 900_000);
});
