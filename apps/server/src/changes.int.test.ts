import { createStackRegistry } from '@weft/stacks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeys } from './api-keys.ts';
import { serveStore } from './serve-store.ts';
import type { ServerHandle } from './start-server.ts';
import { toyStoreDirectory } from './testing/toy-store-directory.ts';

const writer = 'writer-key-0123456789abcdef';
const reader = 'reader-key-0123456789abcdef';

let directory: Awaited<ReturnType<typeof toyStoreDirectory>>;
beforeAll(async () => {
  directory = await toyStoreDirectory();
}, 120_000);
afterAll(async () => {
  await directory?.cleanup();
});

const send = (handle: ServerHandle, path: string, key: string | undefined, body?: unknown) =>
  fetch(`${handle.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

const health = async (handle: ServerHandle) =>
  ((await (await send(handle, '/health', undefined)).json()) as { store: { version: number; nodes: number } })
    .store;

const topIds = async (handle: ServerHandle, key: string, query: string) =>
  (
    (await (await send(handle, '/query', key, { query, stack: 'bm25', limit: 5 })).json()) as {
      results: { id: string }[];
    }
  ).results.map((r) => r.id);

describe('POST /changes', () => {
  it('is off (404) on a server without API keys', async () => {
    const handle = await serveStore({ db: directory.db, port: 0, registry: createStackRegistry() });
    try {
      const response = await send(handle, '/changes', undefined, { deletions: [{ node: 'p:q2' }] });
      expect(response.status).toBe(404);
      expect(await response.text()).toContain('needs a server started with API keys');
      expect((await health(handle)).version).toBe(0);
    } finally {
      await handle.shutdown();
    }
  });

  it('applies a change set for a write key; the running server answers from the new version', async () => {
    const apiKeys = ApiKeys.parse(`${writer} read write\n${reader} read\n`, 'keys.txt');
    const handle = await serveStore({ db: directory.db, port: 0, registry: createStackRegistry(), apiKeys });
    try {
      const change = {
        nodes: [
          {
            id: 'p:zeiss',
            type: 'product',
            name: 'Zeiss Otus 85',
            text: 'A manual focus portrait lens of extraordinary sharpness, the quixotic choice.',
          },
        ],
        edges: [{ src: 'p:zeiss', type: 'compatible_with', dst: 'p:d850' }],
        deletions: [{ node: 'p:q2' }],
      };
      expect(await topIds(handle, writer, 'quixotic portrait lens')).not.toContain('p:zeiss');
      expect((await send(handle, '/changes', reader, change)).status).toBe(403);
      expect((await send(handle, '/changes', undefined, change)).status).toBe(401);

      const bad = await send(handle, '/changes', writer, {
        nodes: [
          { id: 'p:x', type: 'product', name: 'x', text: '' },
          { id: 'p:y', type: 'poem', name: 'y', text: '' },
        ],
        edges: [{ src: 'p:x', type: 'made_by', dst: 'p:nowhere' }],
      });
      expect(bad.status).toBe(400);
      const problem = ((await bad.json()) as { error: { message: string } }).error.message;
      expect(problem).toContain('nodes.jsonl:2: [type] node type "poem" is not declared');
      expect(problem).toContain('edges.jsonl:1: [dst] dst "p:nowhere"');
      expect((await health(handle)).version).toBe(0);

      // A change set that changes nothing creates no version, as weft update says (the same function).
      for (const nothing of [{}, { deletions: [{ node: 'p:not-in-the-store' }] }]) {
        const unchanged = await send(handle, '/changes', writer, nothing);
        expect(unchanged.status).toBe(200);
        expect(await unchanged.json()).toMatchObject({ unchanged: true, version: 0, previousVersion: 0 });
      }
      expect((await health(handle)).version).toBe(0);

      const applied = await send(handle, '/changes', writer, change);
      expect(applied.status).toBe(200);
      const body = (await applied.json()) as { version: number; nodesUpserted: number; nodesDeleted: number };
      expect(body).toMatchObject({ version: 1, unchanged: false, nodesUpserted: 1, nodesDeleted: 1 });
      expect(await health(handle)).toMatchObject({ version: 1 });
      expect((await topIds(handle, writer, 'quixotic portrait lens'))[0]).toBe('p:zeiss');
      expect(await topIds(handle, writer, 'Leica Q2')).not.toContain('p:q2');
      const node = await send(handle, `/nodes/${encodeURIComponent('p:zeiss')}`, reader);
      expect(node.status).toBe(200);
    } finally {
      await handle.shutdown();
    }
  }, 120_000);
});
