import { createStackRegistry } from '@weft/stacks';
import { replaceArtifacts } from '@weft/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeys } from './api-keys.ts';
import { serveStore } from './serve-store.ts';
import type { ServerHandle } from './start-server.ts';
import { toyStoreDirectory } from './testing/toy-store-directory.ts';

const writer = 'writer-key-0123456789abcdef';

let directory: Awaited<ReturnType<typeof toyStoreDirectory>>;
beforeAll(async () => {
  directory = await toyStoreDirectory();
}, 120_000);
afterAll(async () => {
  await directory?.cleanup();
});

const send = (handle: ServerHandle, path: string, body?: unknown) =>
  fetch(`${handle.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${writer}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

const storeWarnings = async (handle: ServerHandle) =>
  ((await (await send(handle, '/health')).json()) as { store: { version: number; warnings: string[] } })
    .store;

const queryWarnings = async (handle: ServerHandle) =>
  (
    (await (await send(handle, '/query', { query: 'Nikon zoom lens', stack: 'bm25', limit: 5 })).json()) as {
      warnings: string[];
    }
  ).warnings;

/** The warnings of `POST /ask`'s evidence event (no model: the evidence and a done event). */
const askWarnings = async (handle: ServerHandle) => {
  const events = await (await send(handle, '/ask', { question: 'Nikon zoom lens', stack: 'bm25' })).text();
  const evidence = /event: evidence\ndata: (.*)\n/.exec(events)?.[1];
  return ((JSON.parse(evidence ?? 'null') as { warnings?: string[] }).warnings ?? []) as string[];
};

/** Something `weft train` fitted: what it holds does not matter, only which version it was fitted on. */
const train = () =>
  replaceArtifacts(directory.db, (artifacts) => artifacts.put('serve-test.marker', { fitted: true }));

describe('weft serve and trained artifacts made stale by updates', () => {
  it('warns in /health and in every /query and /ask answer once updates pass the threshold, and stops after weft train, without a restart', async () => {
    await train();
    const apiKeys = ApiKeys.parse(`${writer} read write\n`, 'keys.txt');
    const handle = await serveStore({ db: directory.db, port: 0, registry: createStackRegistry(), apiKeys });
    try {
      expect(await storeWarnings(handle)).toMatchObject({ version: 0, warnings: [] });
      expect((await queryWarnings(handle)).join()).not.toContain('stale');
      expect(await askWarnings(handle)).toEqual([]);

      // Three records of a 15-node store (one node added, one deleted): 20 %, past the 5 % threshold.
      const applied = await send(handle, '/changes', {
        nodes: [
          { id: 'p:zeiss', type: 'product', name: 'Zeiss Otus 85', text: 'A manual focus portrait lens.' },
        ],
        edges: [{ src: 'p:zeiss', type: 'compatible_with', dst: 'p:d850' }],
        deletions: [{ node: 'p:q2' }],
      });
      expect(applied.status).toBe(200);
      const stale =
        'the trained artifacts were fitted on store version 0; 1 update(s) since changed 3 records (20.0 % of the nodes): they may be stale — run weft train to refit them';
      expect(await storeWarnings(handle)).toEqual(expect.objectContaining({ version: 1, warnings: [stale] }));
      expect(await queryWarnings(handle)).toContain(stale);
      expect(await askWarnings(handle)).toEqual([stale]);

      await train();
      expect(await storeWarnings(handle)).toMatchObject({ version: 1, warnings: [] });
      expect((await queryWarnings(handle)).join()).not.toContain('stale');
    } finally {
      await handle.shutdown();
    }
  }, 120_000);
});
