import { embedderId } from '@weft/kit';
import { describe, expect, it } from 'vitest';
import { createEmbeddingModel, parseEmbedderSpec } from './embedder-spec.ts';

describe('parseEmbedderSpec', () => {
  it('parses every provider form', () => {
    expect(parseEmbedderSpec('local')).toEqual({ kind: 'local' });
    expect(parseEmbedderSpec('openai:text-embedding-3-small')).toEqual({
      kind: 'openai',
      model: 'text-embedding-3-small',
    });
    expect(parseEmbedderSpec('ollama:nomic-embed-text:v1.5')).toEqual({
      kind: 'ollama',
      model: 'nomic-embed-text:v1.5',
    });
    expect(parseEmbedderSpec('openai-compatible:http://localhost:8080/v1:bge-m3')).toEqual({
      kind: 'openai-compatible',
      baseURL: 'http://localhost:8080/v1',
      model: 'bge-m3',
    });
    expect(parseEmbedderSpec('openai-compatible:https://api.example.com:model:tag')).toEqual({
      kind: 'openai-compatible',
      baseURL: 'https://api.example.com',
      model: 'model:tag',
    });
  });

  it.each([
    '',
    'openai',
    'openai:',
    'ollama:',
    'cohere:embed',
    'openai-compatible:bge-m3',
    'openai-compatible:ftp://x:m',
  ])('rejects %j with WEFT_BAD_INPUT', (spec) => {
    expect(() => parseEmbedderSpec(spec)).toThrow(expect.objectContaining({ code: 'WEFT_BAD_INPUT' }));
  });
});

describe('createEmbeddingModel', () => {
  // No network here: hosted providers are only constructed, never called.
  it('constructs hosted and local-server providers through the AI SDK', async () => {
    const env = { OPENAI_API_KEY: 'sk-test' };
    const openai = await createEmbeddingModel('openai:text-embedding-3-small', { env });
    expect(openai.specificationVersion).toBe('v4');
    expect(embedderId(openai)).toMatch(/^openai.*:text-embedding-3-small$/);
    const ollama = await createEmbeddingModel('ollama:nomic-embed-text', { env });
    expect(ollama.modelId).toBe('nomic-embed-text');
    const compatible = await createEmbeddingModel('openai-compatible:http://localhost:8080/v1:bge-m3', {
      env,
    });
    expect(compatible.modelId).toBe('bge-m3');
    expect(embedderId(compatible)).not.toBe(embedderId(openai));
  });

  it('needs the fitted model directory for local', async () => {
    await expect(createEmbeddingModel('local')).rejects.toMatchObject({ code: 'WEFT_BAD_INPUT' });
  });
});
