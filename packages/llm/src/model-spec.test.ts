import { describe, expect, it } from 'vitest';
import { createLanguageModel, parseModelSpec } from './model-spec.ts';

describe('parseModelSpec', () => {
  it('reads every provider, with models that hold colons and URLs with ports and paths', () => {
    expect(parseModelSpec('openai:gpt-4o-mini')).toEqual({ kind: 'openai', model: 'gpt-4o-mini' });
    expect(parseModelSpec('anthropic:claude-haiku-4-5')).toEqual({
      kind: 'anthropic',
      model: 'claude-haiku-4-5',
    });
    expect(parseModelSpec('ollama:llama3.1:8b')).toEqual({ kind: 'ollama', model: 'llama3.1:8b' });
    expect(parseModelSpec('openai-compatible:http://127.0.0.1:8080/v1:llama-3.1-8b')).toEqual({
      kind: 'openai-compatible',
      baseURL: 'http://127.0.0.1:8080/v1',
      model: 'llama-3.1-8b',
    });
    expect(parseModelSpec('openai-compatible:https://host/v1/:org/model:q4')).toEqual({
      kind: 'openai-compatible',
      baseURL: 'https://host/v1',
      model: 'org/model:q4',
    });
  });

  it.each([
    ['', /empty/],
    ['gpt-4o', /unknown model provider "gpt-4o"/],
    ['openai:', /openai needs a model name/],
    ['openai-compatible:localhost:8080:x', /needs <http\(s\) base URL>:<model>/],
    ['openai-compatible:http://127.0.0.1:8080/v1', /needs <http\(s\) base URL>:<model>/],
  ])('refuses %j with WEFT_BAD_INPUT', (spec, message) => {
    expect(() => parseModelSpec(spec)).toThrow(message);
    expect(() => parseModelSpec(spec)).toThrow(expect.objectContaining({ code: 'WEFT_BAD_INPUT' }));
  });
});

describe('createLanguageModel', () => {
  it('builds the openai-compatible chat model for the URL and model, without connecting', async () => {
    const model = await createLanguageModel('openai-compatible:http://127.0.0.1:9/v1:tiny', { env: {} });
    expect(model.specificationVersion).toBe('v4');
    expect(model.modelId).toBe('tiny');
    expect(model.provider).toMatch(/^openai-compatible/);
  });

  it('loads the hosted providers on demand, keys from the environment', async () => {
    const openai = await createLanguageModel('openai:gpt-4o-mini', { env: { OPENAI_API_KEY: 'k' } });
    expect([openai.provider, openai.modelId]).toEqual(['openai.chat', 'gpt-4o-mini']);
    const anthropic = await createLanguageModel('anthropic:claude-haiku-4-5', {
      env: { ANTHROPIC_API_KEY: 'k' },
    });
    expect(anthropic.provider).toMatch(/^anthropic/);
    const ollama = await createLanguageModel('ollama:llama3.1', { env: {} });
    expect([ollama.provider.startsWith('ollama'), ollama.modelId]).toEqual([true, 'llama3.1']);
  });

  it('refuses a hosted provider without its key, naming the variable', async () => {
    await expect(createLanguageModel('openai:gpt-4o-mini', { env: {} })).rejects.toMatchObject({
      code: 'WEFT_BAD_INPUT',
      message: expect.stringContaining('OPENAI_API_KEY'),
    });
    await expect(createLanguageModel('anthropic:claude-haiku-4-5', { env: {} })).rejects.toMatchObject({
      code: 'WEFT_BAD_INPUT',
      message: expect.stringContaining('ANTHROPIC_API_KEY'),
    });
    // A base URL (a local proxy) makes the OpenAI key optional.
    await expect(
      createLanguageModel('openai:gpt-4o-mini', { env: { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' } }),
    ).resolves.toMatchObject({ modelId: 'gpt-4o-mini' });
  });
});
