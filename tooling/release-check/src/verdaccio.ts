// A throw-away npm registry: Verdaccio on 127.0.0.1, a free port, its storage, configuration and users
// in a folder of ours. `@weft/*` is published to it and served from it alone (no uplink: nothing of
// that scope comes from npmjs); the development scopes (`@weft-dev/*`, `@internal/*`) can be neither
// published nor fetched; every other package is proxied from the machine's registry, so a plain
// `npm install` of `@weft/*` gets its third-party dependencies as a user's would.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { openSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';

export interface VerdaccioConfigOptions {
  /** Folder for the packages published (and the users). */
  readonly directory: string;
  /** The registry third-party packages come from, e.g. https://registry.npmjs.org/. */
  readonly upstream: string;
}

/** A group no user belongs to: whoever tries to publish there is refused. */
const nobody = 'no-one-publishes-here';

/** Verdaccio's config.yaml (JSON is YAML). */
export function verdaccioConfig({ directory, upstream }: VerdaccioConfigOptions): string {
  const local = { access: '$all', publish: '$authenticated', unpublish: '$authenticated' };
  const closed = { access: nobody, publish: nobody, unpublish: nobody };
  const config = {
    storage: path.join(directory, 'storage'),
    auth: { htpasswd: { file: path.join(directory, 'htpasswd'), max_users: 1 } },
    uplinks: {
      upstream: { url: upstream, timeout: '60s', max_fails: 20, fail_timeout: '10s', cache: false },
    },
    packages: {
      '@weft/*': local,
      '@weft-dev/*': closed,
      '@internal/*': closed,
      '**': { access: '$all', publish: nobody, unpublish: nobody, proxy: 'upstream' },
    },
    // Tokens are JWTs, checked by their signature: the legacy ones carry the password, and bcrypt
    // took a second a request on a busy machine, dozens of requests a publish.
    security: { api: { legacy: false, jwt: { sign: { expiresIn: '1d' } } } },
    max_body_size: '200mb',
    web: { enable: false },
    log: { type: 'stdout', format: 'pretty', level: 'warn' },
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

/** A port nothing listens on now, on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

export interface Registry {
  /** With a trailing slash, e.g. http://127.0.0.1:41234/. */
  readonly url: string;
  /** A publishing token of the one user. */
  readonly token: string;
  /** The server's own output. */
  readonly logFile: string;
  /** The `.npmrc` lines that publish to it: registry and token. */
  npmrc(): string;
  stop(): Promise<void>;
}

async function logTail(file: string): Promise<string> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.trim().split('\n').slice(-30).join('\n');
}

/** Starts Verdaccio (with this Node) and adds the user that publishes. */
export async function startVerdaccio(options: VerdaccioConfigOptions & { port?: number }): Promise<Registry> {
  await mkdir(options.directory, { recursive: true });
  const configFile = path.join(options.directory, 'config.yaml');
  await writeFile(configFile, verdaccioConfig(options));
  const logFile = path.join(options.directory, 'verdaccio.log');
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}/`;
  const packageJson = createRequire(import.meta.url).resolve('verdaccio/package.json');
  const bin = path.join(path.dirname(packageJson), 'bin', 'verdaccio');
  const output = openSync(logFile, 'a');
  const child: ChildProcess = spawn(
    process.execPath,
    ['--no-warnings', bin, '--config', configFile, '--listen', `127.0.0.1:${port}`],
    { stdio: ['ignore', output, output], env: { ...process.env, NODE_OPTIONS: '' } },
  );
  let exited = false;
  // Whatever way this process ends (process.exit included), the server goes with it.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => {
    exited = true;
    process.off('exit', killOnExit);
  });
  const stop = async () => {
    if (exited) return;
    const gone = once(child, 'exit');
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await gone;
    clearTimeout(timer);
  };

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error(`Verdaccio exited before it answered:\n${await logTail(logFile)}`);
    const ok = await fetch(`${url}-/ping`)
      .then((response) => response.ok)
      .catch(() => false);
    if (ok) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`Verdaccio did not answer on ${url} within 60 s:\n${await logTail(logFile)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }

  const name = 'release-check';
  const response = await fetch(`${url}-/user/org.couchdb.user:${name}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, password: `${name}-${process.pid}-${Date.now()}` }),
  });
  const body = (await response.json().catch(() => ({}))) as { token?: string; error?: string };
  if (!response.ok || !body.token) {
    await stop();
    throw new Error(`Verdaccio refused the user: ${response.status} ${body.error ?? ''}`);
  }
  const token = body.token;
  const host = url.replace(/^https?:/, '');
  return {
    url,
    token,
    logFile,
    npmrc: () => `registry=${url}\n${host}:_authToken=${token}\n`,
    stop,
  };
}
