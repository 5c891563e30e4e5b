import { request as httpRequest } from 'node:http';
import { retrieve } from '@weft/core';
import { fetchLabels, mentionedIds, queryResultJson } from '@weft/explain';
import { createStack, createStackRegistry } from '@weft/stacks';
import { type OpenedStore, openStore } from '@weft/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerHandle, startServer } from './start-server.ts';
import { readJson } from './testing/read-json.ts';
import { gatedStack, stallStack } from './testing/test-stacks.ts';
import { toyStoreDirectory } from './testing/toy-store-directory.ts';

let directory: Awaited<ReturnType<typeof toyStoreDirectory>>;
let store: OpenedStore;

beforeAll(async () => {
  directory = await toyStoreDirectory();
  store = await openStore(directory.db);
});
afterAll(async () => {
  await store?.close();
  await directory?.cleanup();
});

/** A deferred the test resolves to let a gated stack answer. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened: () => opened };
}

async function serve(
  limits: Parameters<typeof startServer>[0]['limits'] = {},
  extra = createStackRegistry(),
) {
  return startServer({ store, registry: extra, port: 0, limits });
}

const post = (handle: ServerHandle, path: string, body: unknown, init: RequestInit = {}) =>
  fetch(`${handle.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  });

async function health(handle: ServerHandle) {
  return (await (await fetch(`${handle.url}/health`)).json()) as {
    status: string;
    requests: { inFlight: number; served: number; aborted: number; timedOut: number; rejected: number };
  };
}

/** Polls /health until `check` holds (the server's state changes after a response or a hang-up). */
async function until(handle: ServerHandle, check: (h: Awaited<ReturnType<typeof health>>) => boolean) {
  for (let i = 0; i < 500; i++) {
    const h = await health(handle);
    if (check(h)) return h;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`condition never held: ${JSON.stringify(await health(handle))}`);
}

describe('weft serve API on a real store', () => {
  let handle: ServerHandle;
  beforeAll(async () => {
    handle = await serve();
  });
  afterAll(async () => {
    await handle?.shutdown();
  });

  it('listens on 127.0.0.1 and reports the store', async () => {
    expect(handle.host).toBe('127.0.0.1');
    const h = (await health(handle)) as unknown as Record<string, unknown>;
    expect(h).toMatchObject({ status: 'ok', store: { name: 'toy-cameras', nodes: 15, edges: 18 } });
  });

  it('lists the stacks', async () => {
    const body = await readJson(await fetch(`${handle.url}/stacks`), 'stacksResponse');
    expect(body.default).toBe('default');
    expect(body.stacks.map((s: { name: string }) => s.name)).toEqual(
      createStackRegistry()
        .list()
        .map((e) => e.name),
    );
  });

  it('answers POST /query with the JSON of weft query --json', async () => {
    const response = await post(handle, '/query', {
      query: 'telephoto zoom lens for birds',
      stack: 'bm25',
      limit: 5,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    const body = await readJson(response, 'queryResponse');
    // The same retrieval through the library, rendered by the shared function.
    const result = await retrieve(await createStack('bm25', store), {
      query: 'telephoto zoom lens for birds',
      limit: 5,
    });
    const labels = await fetchLabels(
      store.graph,
      result.ranking.map((c) => c.id),
    );
    expect(body).toEqual(
      JSON.parse(
        JSON.stringify(
          queryResultJson(result, labels, { query: 'telephoto zoom lens for birds', stack: 'bm25' }),
        ),
      ),
    );
    expect(body.results[0]).toMatchObject({ rank: 1, id: 'p:nikkor', name: 'AF-S Nikkor 200-500mm' });
    expect(body.explanation).toBeUndefined();
  });

  it('adds the plan, the paths and the documents when asked', async () => {
    const response = await post(handle, '/query', {
      query: 'Nikon zoom lens',
      stack: 'mor-offline',
      explain: true,
      documents: true,
    });
    expect(response.status).toBe(200);
    const body = await readJson(response, 'queryResponse');
    expect(body.stack).toBe('mor-offline');
    expect(body.results.length).toBeGreaterThan(0);
    expect(body.results[0]!.text).toMatch(/\w/);
    const result = await retrieve(await createStack('mor-offline', store), {
      query: 'Nikon zoom lens',
      limit: 20,
    });
    const labels = await fetchLabels(store.graph, mentionedIds(result));
    const expected = JSON.parse(
      JSON.stringify(
        queryResultJson(result, labels, { query: 'Nikon zoom lens', stack: 'mor-offline', explain: true }),
      ),
    );
    const explanation = body.explanation!;
    expect(explanation.plan).toEqual(expected.explanation.plan);
    expect(explanation.trajectories).toEqual(expected.explanation.trajectories);
    expect(explanation.labels).toEqual(expected.explanation.labels);
    expect((explanation.trace as { stages: unknown[] }).stages.length).toBeGreaterThan(0);
  });

  it('shows a node with its document and neighbours by edge type and direction', async () => {
    const response = await fetch(`${handle.url}/nodes/${encodeURIComponent('p:nikkor')}`);
    expect(response.status).toBe(200);
    const body = await readJson(response, 'nodeResponse');
    expect(body.node).toMatchObject({ id: 'p:nikkor', type: 'product', name: 'AF-S Nikkor 200-500mm' });
    expect(body.document).toMatch(/Telephoto zoom lens/);
    const group = (edgeType: string, direction: string) =>
      body.neighbours.find((g) => g.edgeType === edgeType && g.direction === direction)!;
    expect(group('made_by', 'out').nodes).toEqual([{ id: 'b:nikon', type: 'brand', name: 'Nikon' }]);
    expect(
      group('compatible_with', 'out')
        .nodes.map((n) => n.id)
        .sort(),
    ).toEqual(['p:d3500', 'p:d850']);
    expect(group('compatible_with', 'out').truncated).toBe(false);
    // A raw colon in the path works too; the cap marks a cut group.
    const capped = await readJson(await fetch(`${handle.url}/nodes/b:nikon?limit=1`), 'nodeResponse');
    const products = capped.neighbours.find((g) => g.edgeType === 'made_by')!;
    expect(products).toMatchObject({ direction: 'in', truncated: true });
    expect(products.nodes).toHaveLength(1);
  });

  it('answers an unknown node and an unknown route with JSON errors', async () => {
    const unknown = await fetch(`${handle.url}/nodes/nope`);
    expect(unknown.status).toBe(404);
    expect((await readJson(unknown, 'error')).error.code).toBe('WEFT_NOT_FOUND');
    const route = await fetch(`${handle.url}/nowhere`);
    expect(route.status).toBe(404);
    expect((await readJson(route, 'error')).error.code).toBe('WEFT_NOT_FOUND');
  });

  it.each([
    ['malformed JSON', '{"query": "lens"', 400, 'WEFT_BAD_JSON'],
    ['a body that is not an object', '"lens"', 400, 'WEFT_BAD_INPUT'],
    ['no query', { stack: 'bm25' }, 400, 'WEFT_BAD_INPUT'],
    ['an empty query', { query: '   ' }, 400, 'WEFT_BAD_INPUT'],
    ['an unknown field', { query: 'lens', limt: 5 }, 400, 'WEFT_BAD_INPUT'],
    ['an unknown stack', { query: 'lens', stack: 'nope' }, 400, 'WEFT_UNKNOWN_STACK'],
    ['a query over the length limit', { query: 'lens '.repeat(201) }, 400, 'WEFT_QUERY_TOO_LONG'],
    ['limit 0', { query: 'lens', limit: 0 }, 400, 'WEFT_LIMIT_OUT_OF_RANGE'],
    ['limit over the maximum', { query: 'lens', limit: 101 }, 400, 'WEFT_LIMIT_OUT_OF_RANGE'],
    ['a fractional limit', { query: 'lens', limit: 2.5 }, 400, 'WEFT_LIMIT_OUT_OF_RANGE'],
    ['a limit given as a string', { query: 'lens', limit: '5' }, 400, 'WEFT_LIMIT_OUT_OF_RANGE'],
    ['an oversize body', { query: 'lens', pad: 'x'.repeat(20_000) }, 413, 'WEFT_BODY_TOO_LARGE'],
  ])('refuses %s', async (_, body, status, code) => {
    const response = await post(handle, '/query', body);
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    const json = await readJson(response, 'error');
    expect(json.error.code).toBe(code);
    expect(json.error.message).toEqual(expect.any(String));
  });

  it('refuses a body without a JSON content type', async () => {
    const response = await post(handle, '/query', '{"query": "lens"}', {
      headers: { 'content-type': 'text/plain' },
    });
    expect(response.status).toBe(415);
    expect((await readJson(response, 'error')).error.code).toBe('WEFT_UNSUPPORTED_MEDIA_TYPE');
  });

  it('refuses an oversize body sent without a length (chunked) before reading it all', async () => {
    const url = new URL(`${handle.url}/query`);
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk) => {
            text += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      // No Content-Length: Node sends the body chunked; 64 KiB is four times the limit.
      req.write('{"query": "');
      for (let i = 0; i < 64; i++) req.write('x'.repeat(1024));
      req.end('"}');
    });
    expect(status).toBe(413);
    expect(JSON.parse(body).error.code).toBe('WEFT_BODY_TOO_LARGE');
  });

  it('publishes an OpenAPI document generated from the request schemas', async () => {
    const doc = (await (await fetch(`${handle.url}/openapi.json`)).json()) as {
      openapi: string;
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      components: {
        schemas: Record<string, { required: string[]; properties: Record<string, Record<string, unknown>> }>;
      };
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/ask',
      '/changes',
      '/health',
      '/mcp',
      '/nodes',
      '/nodes/{id}',
      '/query',
      '/stacks',
    ]);
    const request = doc.components.schemas.QueryRequest!;
    expect(request.required).toEqual(['query']);
    expect(request.properties.query!.maxLength).toBe(1000);
    expect(request.properties.limit).toMatchObject({ minimum: 1, maximum: 100 });
    expect(doc.paths['/query']!.post!.responses['413']).toBeDefined();
  });
});

describe('weft serve under slow, vanished and stopped requests', () => {
  it('aborts a retrieval past the per-request timeout and answers 504', async () => {
    const handle = await serve({ timeoutMs: 100 }, createStackRegistry().register(stallStack));
    try {
      const response = await post(handle, '/query', { query: 'lens', stack: 'stall' });
      expect(response.status).toBe(504);
      expect((await readJson(response, 'error')).error.code).toBe('WEFT_TIMEOUT');
      // The stall stack settles only when aborted: nothing is left running.
      expect((await until(handle, (h) => h.requests.inFlight === 0)).requests.timedOut).toBe(1);
    } finally {
      await handle.shutdown();
    }
  });

  it('answers on time even when a stage ignores the abort, and keeps the work tracked until it ends', async () => {
    const slow = gate();
    const handle = await serve(
      { timeoutMs: 100 },
      createStackRegistry().register(gatedStack('deaf', slow.opened)),
    );
    try {
      const response = await post(handle, '/query', { query: 'lens', stack: 'deaf' });
      expect(response.status).toBe(504);
      expect((await health(handle)).requests.inFlight).toBe(1);
      slow.open();
      await until(handle, (h) => h.requests.inFlight === 0);
    } finally {
      await handle.shutdown();
    }
  });

  it('aborts the retrieval of a client that went away', async () => {
    const handle = await serve({}, createStackRegistry().register(stallStack));
    try {
      const hangUp = new AbortController();
      const pending = post(handle, '/query', { query: 'lens', stack: 'stall' }, { signal: hangUp.signal });
      await until(handle, (h) => h.requests.inFlight === 1);
      hangUp.abort();
      await expect(pending).rejects.toThrow();
      const after = await until(handle, (h) => h.requests.inFlight === 0);
      expect(after.requests.aborted).toBe(1);
      expect(after.requests.timedOut).toBe(0);
    } finally {
      await handle.shutdown();
    }
  });

  it('shuts down gracefully: refuses new work, finishes the request in flight, then closes', async () => {
    const slow = gate();
    const handle = await serve({}, createStackRegistry().register(gatedStack('gated', slow.opened)));
    const inFlight = post(handle, '/query', {
      query: 'telephoto zoom lens for birds',
      stack: 'gated',
      limit: 3,
    });
    await until(handle, (h) => h.requests.inFlight === 1);
    let stopped = false;
    const shutdown = handle.shutdown().then(() => {
      stopped = true;
    });
    // Draining: no new connections (refused) or, on a connection still open, a 503.
    const late = await fetch(`${handle.url}/stacks`).then(
      (r) => r.status,
      () => 'refused',
    );
    expect([503, 'refused']).toContain(late);
    expect(stopped).toBe(false);
    slow.open();
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect((await readJson(response, 'queryResponse')).results[0]!.id).toBe('p:nikkor');
    await shutdown;
    expect(stopped).toBe(true);
    await expect(fetch(`${handle.url}/health`)).rejects.toThrow();
  });

  it('stops waiting after the grace period: the request in flight is aborted with 503', async () => {
    const handle = await serve({ shutdownGraceMs: 100 }, createStackRegistry().register(stallStack));
    const inFlight = post(handle, '/query', { query: 'lens', stack: 'stall' });
    await until(handle, (h) => h.requests.inFlight === 1);
    await handle.shutdown();
    const response = await inFlight;
    expect(response.status).toBe(503);
    expect((await readJson(response, 'error')).error.code).toBe('WEFT_UNAVAILABLE');
  });
});
