import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { QueryResultJson } from '@weft/explain';
import { buildStore } from '@weft/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toyWorkspace } from '../testing/toy-store.ts';

const mainScript = fileURLToPath(new URL('../main.ts', import.meta.url));

let workspace: Awaited<ReturnType<typeof toyWorkspace>>;
beforeAll(async () => {
  workspace = await toyWorkspace();
  await buildStore({ bundle: workspace.bundle, directory: workspace.db });
});
afterAll(async () => {
  await workspace?.cleanup();
});

describe('weft serve (the real command, in its own process)', () => {
  it('serves a built store and the explorer, and stops on SIGTERM with exit code 0', async () => {
    const child = spawn(
      process.execPath,
      [
        '--conditions=@weft/source',
        '--disable-warning=ExperimentalWarning',
        mainScript,
        'serve',
        '--db',
        workspace.db,
        '--port',
        '0',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LANCEDB_LOG: 'error' } },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const exited = once(child, 'exit');
    try {
      while (!stdout.includes('\n')) {
        if (child.exitCode !== null) throw new Error(`weft serve exited early:\n${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const url = stdout.trim().replace(/\/$/, '');
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const health = await (await fetch(`${url}/health`)).json();
      expect(health).toMatchObject({ status: 'ok', store: { nodes: 15, edges: 18 } });
      const query = await fetch(`${url}/query`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'telephoto zoom lens for birds', limit: 3, explain: true }),
      });
      expect(query.status).toBe(200);
      expect(((await query.json()) as QueryResultJson).stack).toBe('default');
      expect(await (await fetch(`${url}/`)).text()).toMatch(/<title>Weft explorer<\/title>/);
      const module = await fetch(`${url}/app/main.ts`);
      expect(module.headers.get('content-type')).toMatch(/text\/javascript/);
      child.kill('SIGTERM');
      const [code] = await exited;
      expect(code).toBe(0);
      expect(stderr).toMatch(/SIGTERM: finishing requests in flight, then stopping/);
      expect(stderr).toMatch(/stopped after 3 answered requests/); // /health is not counted
      expect(stderr).not.toMatch(/Error/);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
