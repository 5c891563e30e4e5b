// POST /mcp: the agent tools over MCP's Streamable HTTP transport, driven by the official SDK's
// Client over HTTP on 127.0.0.1, against a real store (Kùzu + LanceDB, the toy shop), with and
// without API keys.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createStackRegistry } from '@weft/stacks';
import { type OpenedStore, openStore } from '@weft/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeys } from './api-keys.ts';
import { type ServerHandle, startServer } from './start-server.ts';
import { toyStoreDirectory } from './testing/toy-store-directory.ts';

const readKey = 'r'.repeat(24);
const writeKey = 'w'.repeat(24);

let directory: Awaited<ReturnType<typeof toyStoreDirectory>>;
let store: OpenedStore;
let open: ServerHandle;
let keyed: ServerHandle;

beforeAll(async () => {
  directory = await toyStoreDirectory();
  store = await openStore(directory.db);
  const registry = createStackRegistry();
  open = await startServer({ store, registry, port: 0 });
  keyed = await startServer({
    store,
    registry,
    port: 0,
    apiKeys: ApiKeys.parse(`${readKey} read\n${writeKey} write\n`, 'keys.txt'),
  });
});
afterAll(async () => {
  await open?.shutdown();
  await keyed?.shutdown();
  await store?.close();
  await directory?.cleanup();
});

async function connect(handle: ServerHandle, key?: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${handle.url}/mcp`), {
    ...(key ? { requestInit: { headers: { Authorization: `Bearer ${key}` } } } : {}),
  });
  const client = new Client({ name: 'weft-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

type ToolResult = Awaited<ReturnType<Client['callTool']>>;
const text = (result: ToolResult) => (result.content as { type: string; text: string }[])[0]!.text;

describe('POST /mcp with the SDK client over Streamable HTTP', () => {
  it('without keys: lists the tools, searches with the default stack, reads a node, reports tool errors', async () => {
    const client = await connect(open);
    try {
      expect(client.getServerVersion()?.name).toBe('weft');
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
        'search',
        'get_node',
        'neighbors',
      ]);
      const ranked = JSON.parse(
        text(
          await client.callTool({
            name: 'search',
            arguments: { query: 'telephoto zoom lens for birds', limit: 3 },
          }),
        ),
      );
      expect(ranked.stack).toBe('default');
      expect(ranked.results[0]).toMatchObject({ rank: 1, id: 'p:nikkor', type: 'product' });
      expect(ranked.results[0].why).toMatch(/^(path|text): /);
      const node = JSON.parse(
        text(await client.callTool({ name: 'get_node', arguments: { id: 'b:canon' } })),
      );
      expect(node).toMatchObject({
        id: 'b:canon',
        name: 'Canon',
        document: 'Japanese maker of cameras, printers and lenses.',
      });
      expect(node.edges).toEqual([
        expect.objectContaining({ edgeType: 'made_by', direction: 'in', count: 2 }),
      ]);
      const missing = await client.callTool({ name: 'neighbors', arguments: { id: 'x:none' } });
      expect(missing.isError).toBe(true);
      expect(text(missing)).toMatch(/^WEFT_NOT_FOUND: no node has the id "x:none"/);
      const bad = await client.callTool({ name: 'search', arguments: { query: 'lens', limit: 'ten' } });
      expect(bad.isError).toBe(true);
    } finally {
      await client.close();
    }
    // Counted as served requests, like the other routes.
    const health = (await (await fetch(`${open.url}/health`)).json()) as { requests: { served: number } };
    expect(health.requests.served).toBeGreaterThanOrEqual(6);
  });

  it('with keys: a read key is served; no key is 401 and a key without the read scope 403', async () => {
    const client = await connect(keyed, readKey);
    try {
      const ranked = JSON.parse(
        text(
          await client.callTool({ name: 'search', arguments: { query: 'entry level dslr', stack: 'bm25' } }),
        ),
      );
      expect(ranked.results[0].id).toBe('p:d3500');
    } finally {
      await client.close();
    }
    await expect(connect(keyed)).rejects.toThrow(/WEFT_UNAUTHORIZED/);
    await expect(connect(keyed, writeKey)).rejects.toThrow(/WEFT_FORBIDDEN/);
    const raw = await fetch(`${keyed.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(raw.status).toBe(401);
    const forbidden = await fetch(`${keyed.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${writeKey}`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(forbidden.status).toBe(403);
  });

  it('GET /mcp (a server-sent stream) is 405: the endpoint is stateless; the OpenAPI document lists POST /mcp', async () => {
    const get = await fetch(`${open.url}/mcp`, { headers: { accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const doc = (await (await fetch(`${open.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    expect(doc.paths['/mcp']?.post?.operationId).toBe('mcp');
  });
});
