import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createStackRegistry } from '@weft/stacks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeys, requireScope } from './api-keys.ts';
import { createApp } from './create-app.ts';
import { memoryStore } from './testing/memory-store.ts';

const readKey = 'r'.repeat(8) + '-read-only-key-0001';
const fullKey = 'f'.repeat(8) + '-full-access-key-0002';
const writeKey = 'w'.repeat(8) + '-write-only-key-0003';

function app(keys?: ApiKeys) {
  const { app } = createApp({
    store: memoryStore(),
    registry: createStackRegistry(),
    ...(keys ? { apiKeys: keys } : {}),
  });
  // What the living-KB issue's write endpoint will do.
  app.post('/test-write', requireScope('write'), (c) => c.json({ written: true }, 200));
  return app;
}

const keys = () =>
  ApiKeys.parse(`# keys of the test\n${readKey} read\n\n${fullKey}\n${writeKey} write\n`, 'keys.txt');
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const query = (headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify({ query: 'Nikon telephoto', stack: 'bm25', limit: 2 }),
});

describe('API keys', () => {
  it('without keys the server is open, write scope included', async () => {
    const open = app();
    expect((await open.request('/query', query())).status).toBe(200);
    expect((await open.request('/test-write', { method: 'POST' })).status).toBe(200);
  });

  it('with keys: 401 without a valid Bearer key on every route but GET /health, never echoing the key', async () => {
    const guarded = app(keys());
    expect((await guarded.request('/health')).status).toBe(200);
    for (const [headers, message] of [
      [{}, 'send Authorization: Bearer <key>'],
      [{ authorization: `Basic ${readKey}` }, 'must be "Bearer <key>"'],
      [bearer('not-a-key-of-this-server-000'), 'the API key is not valid'],
      [bearer(`${readKey}x`), 'the API key is not valid'],
    ] as const) {
      const response = await guarded.request('/query', query(headers));
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="weft"');
      const body = await response.text();
      expect(JSON.parse(body).error).toMatchObject({ code: 'WEFT_UNAUTHORIZED' });
      expect(JSON.parse(body).error.message).toContain(message);
      expect(body).not.toContain(readKey);
    }
    for (const route of ['/stacks', '/nodes/p:d850', '/openapi.json', '/'])
      expect((await guarded.request(route)).status, route).toBe(401);
    expect((await guarded.request('/query', query(bearer(readKey)))).status).toBe(200);
    expect((await guarded.request('/stacks', { headers: bearer(fullKey) })).status).toBe(200);
  });

  it("with keys, the explorer's own files open without one (the page asks for it); the API does not", async () => {
    const { app: guarded } = createApp({
      store: memoryStore(),
      registry: createStackRegistry(),
      apiKeys: keys(),
      assets: async (path) =>
        path === '/' || path === '/app/main.ts' ? { body: 'page', contentType: 'text/html' } : undefined,
    });
    for (const route of ['/', '/app/main.ts']) expect((await guarded.request(route)).status, route).toBe(200);
    for (const route of ['/stacks', '/openapi.json', '/nodes/p:d850', '/elsewhere.html'])
      expect((await guarded.request(route)).status, route).toBe(401);
    expect((await guarded.request('/', { method: 'POST' })).status).toBe(401);
  });

  it("requireScope('write') lets a write key through and answers 403 to a read-only key; a write-only key cannot read", async () => {
    const guarded = app(keys());
    const write = (key: string) => guarded.request('/test-write', { method: 'POST', headers: bearer(key) });
    expect((await write(fullKey)).status).toBe(200);
    expect((await write(writeKey)).status).toBe(200);
    const refused = await write(readKey);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: unknown }).error).toEqual({
      code: 'WEFT_FORBIDDEN',
      message: 'this API key lacks the "write" scope',
    });
    expect((await guarded.request('/query', query(bearer(writeKey)))).status).toBe(403);
  });
});

describe('ApiKeys.parse and read', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'weft-api-keys-'));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('reads scopes (default both), and names the file and line of a bad line without the key', () => {
    const parsed = keys();
    expect(parsed.size).toBe(3);
    expect([...parsed.verify(readKey)!]).toEqual(['read']);
    expect([...parsed.verify(fullKey)!]).toEqual(['read', 'write']);
    expect(ApiKeys.parse(`${fullKey} read,write\n`, 'k').verify(fullKey)?.has('write')).toBe(true);
    expect(parsed.verify('nope')).toBeUndefined();
    const secret = 'short-secret';
    expect(() => ApiKeys.parse(`${fullKey}\n${secret} read\n`, 'keys.txt')).toThrow(
      /^keys\.txt:2: the key is 12 characters long; use at least 16/,
    );
    try {
      ApiKeys.parse(`${secret}\n`, 'keys.txt');
    } catch (error) {
      expect(String(error)).not.toContain(secret);
    }
    expect(() => ApiKeys.parse(`${fullKey} admin\n`, 'keys.txt')).toThrow(
      'keys.txt:1: unknown scope "admin" (scopes: read, write)',
    );
    expect(() => ApiKeys.parse(`${fullKey}\n${fullKey} read\n`, 'keys.txt')).toThrow(
      'keys.txt:2: the same key is listed twice',
    );
    expect(() => ApiKeys.parse('# nothing\n\n', 'keys.txt')).toThrow('keys.txt holds no key');
  });

  it('reads a file, and a missing file is bad input', async () => {
    const file = path.join(folder, 'keys');
    await writeFile(file, `${fullKey}\n`);
    expect((await ApiKeys.read(file)).size).toBe(1);
    await expect(ApiKeys.read(path.join(folder, 'none'))).rejects.toMatchObject({
      code: 'WEFT_BAD_INPUT',
      message: expect.stringContaining('cannot read the API key file'),
    });
  });
});
