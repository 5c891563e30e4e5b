// The OpenAPI document against a third-party linter: Redocly's `recommended` rules, with and without
// API keys. `redocly lint` runs as its own process on the document the server serves.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createStackRegistry } from '@weft/stacks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeys } from './api-keys.ts';
import { createApp } from './create-app.ts';
import { memoryStore } from './testing/memory-store.ts';

const redocly = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')),
  'bin/cli.js',
);

async function openapiDocument(apiKeys?: ApiKeys): Promise<Record<string, unknown>> {
  const { app } = createApp({
    store: memoryStore(),
    registry: createStackRegistry(),
    ...(apiKeys ? { apiKeys } : {}),
  });
  const response = await app.request('http://127.0.0.1:8080/openapi.json', {
    headers: apiKeys ? { authorization: 'Bearer key-of-the-lint-test-000' } : {},
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'weft-openapi-lint-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function lint(document: Record<string, unknown>, name: string) {
  const file = path.join(folder, `${name}.json`);
  await writeFile(file, JSON.stringify(document, null, 2));
  // Exit 1 when it finds errors: the report on stdout says which.
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [redocly, 'lint', file, '--extends', 'recommended', '--format', 'json'],
    {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      timeout: 120_000,
    },
  ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  const { problems } = JSON.parse(stdout.slice(stdout.indexOf('{'))) as {
    problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
  };
  return problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
}

describe("the OpenAPI document under Redocly's recommended rules", () => {
  it('passes without errors or warnings, on a server without keys and on one with keys', async () => {
    expect(await lint(await openapiDocument(), 'open')).toEqual([]);
    const keyed = await openapiDocument(ApiKeys.parse('key-of-the-lint-test-000\n', 'keys.txt'));
    expect(await lint(keyed, 'keyed')).toEqual([]);
    expect(keyed.security).toEqual([{ apiKey: [] }]);
  }, 180_000);

  it('declares servers, a license, the bearer scheme, an operationId and a 4XX answer on every operation', async () => {
    const document = (await openapiDocument()) as {
      servers: { url: string }[];
      info: { license: { name: string } };
      security: unknown[];
      components: { securitySchemes: Record<string, { type: string; scheme: string }> };
      paths: Record<string, Record<string, { operationId?: string; responses: Record<string, unknown> }>>;
    };
    expect(document.servers).toEqual([{ url: 'http://127.0.0.1:8080', description: 'this server' }]);
    expect(document.info.license.name).toBe('Apache-2.0');
    expect(document.security).toEqual([{}, { apiKey: [] }]);
    expect(document.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    const operations = Object.values(document.paths).flatMap((methods) => Object.values(methods));
    expect(operations.length).toBeGreaterThanOrEqual(5);
    for (const operation of operations) {
      expect(operation.operationId).toMatch(/^[a-z][A-Za-z]+$/);
      expect(Object.keys(operation.responses).some((status) => status.startsWith('4'))).toBe(true);
    }
  });
});
