import type { QueryResultJson } from '@weft/explain';
import { createStackRegistry } from '@weft/stacks';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runCli } from '../run-cli.ts';
import { captureIo } from '../testing/capture-io.ts';
import { cannedOpenAiServer } from '../testing/canned-openai-server.ts';
import { toyOpener } from '../testing/toy-store.ts';
import { createServeCommand } from './serve.ts';

/** Resolves with the first line `c.out()` holds. */
async function firstLine(out: () => string): Promise<string> {
  for (let i = 0; i < 1000; i++) {
    const line = out().split('\n')[0];
    if (out().includes('\n') && line) return line;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('the server printed nothing');
}

describe('weft serve', () => {
  it('serves the store and the explorer on 127.0.0.1 until SIGTERM, then closes the store', async () => {
    const opener = toyOpener();
    const c = captureIo();
    const command = createServeCommand({ openStore: opener.open, registry: createStackRegistry() });
    const listeners = process.listenerCount('SIGTERM');
    const running = runCli(['serve', '--db', 'store', '--port', '0', '--json'], c.io, [command]);
    const started = JSON.parse(await firstLine(c.out));
    expect(started).toMatchObject({
      host: '127.0.0.1',
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
    });

    const query = await fetch(`${started.url}/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'Nikkor telephoto', stack: 'bm25', limit: 2 }),
    });
    expect(query.status).toBe(200);
    expect(((await query.json()) as QueryResultJson).results[0]!.id).toBe('p:nikkor');
    const page = await fetch(`${started.url}/`);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(await page.text()).toMatch(/Weft explorer/);

    // The handler `weft serve` installed; emitting the event sends no real signal to the test runner.
    process.emit('SIGTERM', 'SIGTERM');
    expect(await running).toBe(0);
    expect(opener.closed()).toBe(1);
    expect(JSON.parse(c.out().trim().split('\n').at(-1)!)).toMatchObject({
      stopped: true,
      requests: { served: 2 },
    });
    expect(process.listenerCount('SIGTERM')).toBe(listeners);
    await expect(fetch(`${started.url}/health`)).rejects.toThrow();
  });

  it.each([
    [['serve'], /--db is required/],
    [['serve', '--db', 'store', '--port', '70000'], /--port must be at most 65535/],
    [['serve', '--db', 'store', '--port', 'x'], /--port must be an integer ≥ 0/],
    [['serve', '--db', 'store', 'extra'], /unexpected argument "extra"/],
  ])('exits 2 on bad usage: %j', async (argv, message) => {
    const c = captureIo();
    const code = await runCli(argv, c.io, [
      createServeCommand({ openStore: toyOpener().open, registry: createStackRegistry() }),
    ]);
    expect(code).toBe(2);
    expect(c.err()).toMatch(message);
  });

  it('exits 2 when the port is taken', async () => {
    const opener = toyOpener();
    const first = captureIo();
    const command = createServeCommand({ openStore: opener.open, registry: createStackRegistry() });
    const running = runCli(['serve', '--db', 'store', '--port', '0', '--json'], first.io, [command]);
    const { port } = JSON.parse(await firstLine(first.out));
    const second = captureIo();
    expect(await runCli(['serve', '--db', 'store', '--port', String(port)], second.io, [command])).toBe(2);
    expect(second.err()).toMatch(new RegExp(`port ${port} on 127.0.0.1 is in use`));
    // The second store was opened and closed again; the first still serves.
    expect(opener.closed()).toBe(1);
    process.emit('SIGTERM', 'SIGTERM');
    expect(await running).toBe(0);
  });

  it('--api-key-file (or $WEFT_API_KEY_FILE): 401 without the key, 200 with it, /health open, the key never printed', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'weft-serve-keys-'));
    const key = 'k3y-of-the-serve-test-0123456789';
    const file = path.join(folder, 'keys.txt');
    await writeFile(file, `${key} read\n`);
    try {
      for (const viaEnv of [false, true]) {
        if (viaEnv) vi.stubEnv('WEFT_API_KEY_FILE', file);
        const c = captureIo();
        const command = createServeCommand({ openStore: toyOpener().open, registry: createStackRegistry() });
        const argv = ['serve', '--db', 'store', '--port', '0', ...(viaEnv ? [] : ['--api-key-file', file])];
        const running = runCli([...argv, '--json'], c.io, [command]);
        const started = JSON.parse(await firstLine(c.out));
        expect(started.apiKeys).toBe(1);
        const stacks = (headers: Record<string, string> = {}) => fetch(`${started.url}/stacks`, { headers });
        expect((await stacks()).status).toBe(401);
        expect((await stacks({ authorization: 'Bearer wrong-key-of-the-serve-test' })).status).toBe(401);
        expect((await stacks({ authorization: `Bearer ${key}` })).status).toBe(200);
        expect((await fetch(`${started.url}/health`)).status).toBe(200);
        process.emit('SIGTERM', 'SIGTERM');
        expect(await running).toBe(0);
        expect(c.out() + c.err()).not.toContain(key);
        vi.unstubAllEnvs();
      }
      const bad = captureIo();
      await writeFile(file, 'short\n');
      expect(
        await runCli(['serve', '--db', 'store', '--api-key-file', file], bad.io, [
          createServeCommand({ openStore: toyOpener().open, registry: createStackRegistry() }),
        ]),
      ).toBe(2);
      expect(bad.err()).toContain(`${file}:1: the key is 5 characters long`);
      expect(bad.err()).not.toContain('short\n');
    } finally {
      vi.unstubAllEnvs();
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('a model that never answers fails no request: POST /query falls back within --timeout-ms, POST /ask sends its evidence', async () => {
    const model = await cannedOpenAiServer(() => ({ hang: true }));
    try {
      const c = captureIo();
      const command = createServeCommand({ openStore: toyOpener().open, registry: createStackRegistry() });
      const running = runCli(
        [
          'serve',
          '--db',
          'store',
          '--port',
          '0',
          '--json',
          '--timeout-ms',
          '2000',
          '--model',
          `openai-compatible:${model.baseURL}:canned`,
        ],
        c.io,
        [command],
      );
      const started = JSON.parse(await firstLine(c.out));
      const post = (route: string, body: unknown) =>
        fetch(`${started.url}${route}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      // focused asks the model twice (Cypher planner, listwise reranker): both must end in time.
      const query = await post('/query', { query: 'lenses made by Nikon', stack: 'focused', limit: 3 });
      expect(query.status).toBe(200);
      const result = (await query.json()) as QueryResultJson;
      expect(result.results.length).toBeGreaterThan(0);
      expect(result.warnings.join('\n')).toMatch(/did not answer/);
      expect(model.requests.length).toBeGreaterThan(0);

      const ask = await post('/ask', { question: 'Nikon telephoto zoom lens', stack: 'bm25' });
      expect(ask.status).toBe(200);
      const events = await ask.text();
      expect(events).toMatch(/event: evidence\ndata: .*p:nikkor/);
      expect(events).toMatch(/event: done\ndata: .*"status":"failed"/);
      process.emit('SIGTERM', 'SIGTERM');
      expect(await running).toBe(0);
    } finally {
      await model.close();
    }
  });

  it.each([
    [
      ['--timeout-ms', '2000', '--model-timeout', '1500'],
      /--model-timeout 1500 does not fit in --timeout-ms 2000.*--model-timeout 1000 or less/,
    ],
    [
      ['--timeout-ms', '1000'],
      /a request limit of 1000 ms leaves a model no time.*--timeout-ms 1250 or more/,
    ],
  ])('refuses model settings that cannot work, before it listens: %j', async (extra, message) => {
    const c = captureIo();
    const command = createServeCommand({ openStore: toyOpener().open, registry: createStackRegistry() });
    const argv = [
      'serve',
      '--db',
      'store',
      '--port',
      '0',
      '--model',
      'openai-compatible:http://127.0.0.1:9/v1:x',
    ];
    expect(await runCli([...argv, ...extra], c.io, [command])).toBe(2);
    expect(c.err()).toMatch(message);
  });
});
