import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJson } from './testing/read-json.ts';
import { type ServerChild, spawnServer } from './testing/spawn-server.ts';
import { toyStoreDirectory } from './testing/toy-store-directory.ts';

let directory: Awaited<ReturnType<typeof toyStoreDirectory>>;
let server: ServerChild | undefined;

beforeAll(async () => {
  directory = await toyStoreDirectory();
});
afterAll(async () => {
  if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
  await directory?.cleanup();
});

describe('weft serve and SIGTERM', () => {
  it('finishes the request in flight, then closes the store and exits 0', async () => {
    // The `hold` stack answers only once the process has received SIGTERM.
    server = await spawnServer(['--db', directory.db, '--hold-until-sigterm']);
    const { url } = server;
    const inFlight = fetch(`${url}/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'telephoto zoom lens for birds', stack: 'hold', limit: 3 }),
    });
    for (;;) {
      const h = await readJson(await fetch(`${url}/health`), 'healthResponse');
      if (h.requests.inFlight === 1) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    server.child.kill('SIGTERM');
    const response = await inFlight;
    expect(response.status).toBe(200);
    const body = await readJson(response, 'queryResponse');
    expect(body.results[0]!.id).toBe('p:nikkor');
    expect(await server.exited).toBe(0);
    expect(server.lines).toContainEqual(expect.objectContaining({ stopped: true }));
    await expect(fetch(`${url}/health`)).rejects.toThrow();
    expect(server.stderr()).not.toMatch(/Error/);
  });
});
