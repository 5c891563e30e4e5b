import { createStackRegistry } from '@weft/stacks';
import { describe, expect, it } from 'vitest';
import { createApp } from './create-app.ts';
import { memoryStore } from './testing/memory-store.ts';

describe('GET /nodes?name=', () => {
  const { app } = createApp({ store: memoryStore(), registry: createStackRegistry() });

  it('finds nodes by name or alias, best first', async () => {
    const response = await app.request('/nodes?name=Nikon&limit=3');
    expect(response.status).toBe(200);
    const { matches } = (await response.json()) as { matches: { id: string; score: number }[] };
    expect(matches[0]).toMatchObject({ id: 'b:nikon', type: 'brand', name: 'Nikon', score: 1 });
    expect(matches.length).toBeLessThanOrEqual(3);
  });

  it('refuses a missing or blank name and a limit out of range with a JSON 400', async () => {
    for (const [url, code] of [
      ['/nodes', 'WEFT_BAD_INPUT'],
      ['/nodes?name=%20', 'WEFT_BAD_INPUT'],
      ['/nodes?name=x&limit=0', 'WEFT_LIMIT_OUT_OF_RANGE'],
      ['/nodes?name=x&limit=26', 'WEFT_LIMIT_OUT_OF_RANGE'],
    ]) {
      const response = await app.request(url!);
      expect(response.status, url).toBe(400);
      expect(((await response.json()) as { error: { code: string } }).error.code, url).toBe(code);
    }
  });

  it('says the limit range the OpenAPI document says, on GET /nodes and GET /nodes/{id} alike', async () => {
    const doc = (await (await app.request('/openapi.json')).json()) as {
      paths: Record<
        string,
        { get: { parameters: { name: string; schema: { minimum: number; maximum: number } }[] } }
      >;
    };
    for (const [route, url] of [
      ['/nodes', '/nodes?name=x&limit=999'],
      ['/nodes/{id}', '/nodes/b:nikon?limit=999'],
    ]) {
      const limit = doc.paths[route!]!.get.parameters.find((p) => p.name === 'limit')!.schema;
      const response = await app.request(url!);
      expect(response.status, url).toBe(400);
      const { error } = (await response.json()) as { error: { message: string } };
      expect(error.message, url).toBe(`limit must be an integer from ${limit.minimum} to ${limit.maximum}`);
    }
  });
});
