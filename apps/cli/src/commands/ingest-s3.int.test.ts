// Indexes on object storage: `weft ingest --indexes s3://bucket/prefix` writes the LanceDB tables
// to an S3-compatible server (s3rver, started here on 127.0.0.1) through LanceDB's own s3:// client,
// and `weft query` reads them there, answering as a store with its indexes on local disk does.
// The KB is small enough (< 50,000 nodes) for an exact vector scan, so two ingests of it rank alike.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const mainScript = join(dirname(fileURLToPath(import.meta.url)), '..', 'main.ts');
const nodeArgs = ['--conditions=@weft/source', '--disable-warning=ExperimentalWarning', mainScript];

/** s3rver checks request signatures against this one key pair. */
const accessKey = 'S3RVER';
const secretKey = 'S3RVER';

interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** This process's environment without AWS credentials, with `env` added. */
function environment(env: Record<string, string>): NodeJS.ProcessEnv {
  const base = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('AWS_')));
  return { ...base, ...env };
}

/** Runs `weft` with `env` added to a copy of this process's environment without AWS credentials. */
async function weft(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  try {
    const { stdout, stderr } = await run(process.execPath, [...nodeArgs, ...args], {
      maxBuffer: 64 << 20,
      env: environment(env),
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** Every file under `directory`, relative to it. */
async function files(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(directory.length + 1));
}

describe('weft ingest --indexes s3://… on an S3-compatible server (s3rver on 127.0.0.1)', () => {
  let root: string;
  let server: S3rver;
  let endpoint: string;
  let bucketFiles: string;
  let s3Store: string;
  let localStore: string;
  let ingested: Ran;
  let queries: string[];
  const credentials = { AWS_ACCESS_KEY_ID: accessKey };

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'weft-s3-'));
    bucketFiles = join(root, 's3rver');
    server = new S3rver({
      address: '127.0.0.1',
      port: 0,
      directory: bucketFiles,
      silent: true,
      configureBuckets: [{ name: 'weft' }],
    });
    const { port } = await server.run();
    endpoint = `http://127.0.0.1:${port}`;
    const bundle = join(root, 'kb');
    expect((await weft(['synth-kb', '--out', bundle, '--nodes', '3000', '--edges', '15000'])).code).toBe(0);
    queries = (await readFile(join(bundle, 'nodes.jsonl'), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .filter((_, i) => i % 1000 === 7)
      .map((line) => (JSON.parse(line) as { name: string }).name.split(' ').slice(0, 4).join(' '));
    s3Store = join(root, 's3-store');
    localStore = join(root, 'local-store');
    // The key id from the environment, the secret as a storage option: neither may be recorded.
    ingested = await weft(
      [
        'ingest',
        bundle,
        '--db',
        s3Store,
        '--indexes',
        's3://weft/stores/kb/',
        '--indexes-option',
        `endpoint=${endpoint}`,
        '--indexes-option',
        'region=us-east-1',
        '--indexes-option',
        'allow_http=true',
        '--indexes-option',
        `AWS_SECRET_ACCESS_KEY=${secretKey}`,
        '--json',
      ],
      credentials,
    );
    expect(ingested.stderr.slice(-2000)).not.toMatch(/error/i);
    expect(ingested.code).toBe(0);
    expect((await weft(['ingest', bundle, '--db', localStore, '--json'])).code).toBe(0);
  }, 600_000);

  afterAll(async () => {
    await server?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('records where the indexes are, without the credentials, and writes them to the bucket', async () => {
    const manifest = JSON.parse(await readFile(join(s3Store, 'store.json'), 'utf8'));
    expect(manifest.indexes.text).toMatchObject({ provider: 'lancedb', path: 's3://weft/stores/kb' });
    expect(manifest.indexes.vector).toMatchObject({ provider: 'lancedb', path: 's3://weft/stores/kb' });
    expect(manifest.indexes.storage).toEqual({ endpoint, region: 'us-east-1', allow_http: 'true' });
    for (const text of [JSON.stringify(manifest), ingested.stdout, ingested.stderr]) {
      expect(text).not.toContain(secretKey);
      expect(text).not.toMatch(/secret_access_key/i);
    }
    expect(JSON.parse(ingested.stdout).indexes.text.path).toBe('s3://weft/stores/kb');
    // Nothing of the LanceDB table is in the store directory; the bucket holds it.
    expect(existsSync(join(s3Store, 'index', 'lance'))).toBe(false);
    expect((await files(bucketFiles)).some((file) => file.includes('stores/kb/nodes.lance'))).toBe(true);
    const info = await weft(['info', '--db', s3Store]);
    expect(info.code).toBe(0);
    expect(info.stdout).toContain('text index: lancedb at s3://weft/stores/kb');
  });

  it('answers every query as the store with local indexes does (credentials from the environment)', async () => {
    const env = { ...credentials, AWS_SECRET_ACCESS_KEY: secretKey };
    for (const stack of ['default', 'bm25', 'bm25-rel', 'vector']) {
      for (const text of queries) {
        const ask = (db: string) => weft(['query', text, '--db', db, '--stack', stack, '--json'], env);
        const [remote, local] = await Promise.all([ask(s3Store), ask(localStore)]);
        expect(remote.stderr).toBe('');
        expect(remote.code).toBe(0);
        const ranking = (ran: Ran) =>
          (JSON.parse(ran.stdout) as { results: { id: string; score: number }[] }).results.map((r) => [
            r.id,
            r.score,
          ]);
        expect(ranking(remote).length).toBeGreaterThan(0);
        expect(ranking(remote), `${stack}: ${text}`).toEqual(ranking(local));
      }
    }
  }, 900_000);

  it('serves queries from the bucket (weft serve, credentials from the environment)', async () => {
    const env = { ...credentials, AWS_SECRET_ACCESS_KEY: secretKey };
    let child: ChildProcess | undefined;
    try {
      child = spawn(process.execPath, [...nodeArgs, 'serve', '--db', s3Store, '--port', '0', '--json'], {
        stdio: ['ignore', 'pipe', 'ignore'],
        env: environment(env),
      });
      const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
      const { url } = JSON.parse(line) as { url: string };
      for (const text of queries) {
        const response = await fetch(`${url}/query`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: text, stack: 'default', limit: 20 }),
        });
        expect(response.status).toBe(200);
        const served = (await response.json()) as { results: { id: string; score: number }[] };
        const local = await weft(['query', text, '--db', localStore, '--stack', 'default', '--json']);
        const ids = (results: { id: string; score: number }[]) => results.map((r) => [r.id, r.score]);
        expect(ids(served.results)).toEqual(ids(JSON.parse(local.stdout).results));
      }
    } finally {
      child?.kill('SIGTERM');
      if (child && child.exitCode === null && child.signalCode === null) await once(child, 'exit');
    }
  }, 600_000);

  it('refuses to update a store whose indexes are on object storage, leaving it as it was', async () => {
    const changes = join(root, 'changes');
    await mkdir(changes, { recursive: true });
    await writeFile(join(changes, 'deletions.jsonl'), '');
    const before = await readFile(join(s3Store, 'store.json'), 'utf8');
    const ran = await weft(['update', '--db', s3Store, changes]);
    expect(ran.code).not.toBe(0);
    expect(ran.stderr).toMatch(
      /on object storage \(s3:\/\/weft\/stores\/kb\).*rebuild the store with weft ingest/,
    );
    expect(await readFile(join(s3Store, 'store.json'), 'utf8')).toBe(before);
  });

  it('refuses a bad --indexes with exit 2 and the reason, before writing anything', async () => {
    const cases: [string, RegExp][] = [
      ['s3://', /no bucket named/],
      ['s3://Not_A_Bucket/x', /not a valid S3 bucket name/],
      ['gs://bucket/x', /gs:\/\/ object storage is not supported/],
      ['s3://weft/a//b', /empty, "\." or "\.\." segment/],
    ];
    for (const [spec, reason] of cases) {
      const db = join(root, 'refused');
      const ran = await weft(['ingest', join(root, 'kb'), '--db', db, '--indexes', spec]);
      expect(ran.code, spec).toBe(2);
      expect(ran.stderr).toMatch(reason);
      expect(existsSync(db)).toBe(false);
    }
    const pair = await weft([
      'ingest',
      join(root, 'kb'),
      '--db',
      join(root, 'refused'),
      '--indexes',
      's3://weft/x',
      '--indexes-option',
      'hunter2',
    ]);
    expect(pair.code).toBe(2);
    expect(pair.stderr).toMatch(/takes key=value/);
    expect(pair.stderr).not.toContain('hunter2');
  }, 120_000);
});
