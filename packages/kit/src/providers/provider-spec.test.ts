import { describe, expect, it } from 'vitest';
import { WeftError } from '../errors/weft-error.ts';
import { importOptionalProvider, splitBaseUrlSpec } from './provider-spec.ts';

describe('splitBaseUrlSpec', () => {
  // A port right after the host is the port; the model is what follows the path, ':' and all.
  it.each([
    ['http://127.0.0.1:8080/v1:llama-3.1-8b', 'http://127.0.0.1:8080/v1', 'llama-3.1-8b'],
    ['https://host/v1/:org/model:tag', 'https://host/v1', 'org/model:tag'],
    ['http://host:8080:bge-m3', 'http://host:8080', 'bge-m3'],
  ])('%s', (tail, baseURL, model) => {
    expect(splitBaseUrlSpec(tail)).toEqual({ baseURL, model });
  });

  it('refuses a tail without a scheme, a host or a model', () => {
    for (const bad of [
      'host:8080/v1:m',
      'http://:m',
      'http://host:8080/v1',
      'http://host/v1:',
      'http://h st/v1:m',
    ])
      expect(splitBaseUrlSpec(bad)).toBeUndefined();
  });
});

describe('importOptionalProvider', () => {
  it('says which optional package is missing and how to add it', async () => {
    const error = await importOptionalProvider(
      '@weft/no-such-provider',
      'this model',
      (n) => import(n),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WeftError);
    expect((error as WeftError).code).toBe('WEFT_UNSUPPORTED');
    expect((error as WeftError).message).toContain(
      'this model needs the optional package @weft/no-such-provider',
    );
  });
});
