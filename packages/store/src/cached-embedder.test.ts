import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { APICallError } from '@ai-sdk/provider';
import { MockEmbeddingModelV4 } from '@weft/core/test';
import { describe, expect, it } from 'vitest';
import { CachedEmbedder, retryDelayMs } from './cached-embedder.ts';
import { EmbeddingCache } from './embedding-cache.ts';

const apiError = (statusCode: number, responseHeaders?: Record<string, string>) =>
  new APICallError({
    message: `HTTP ${statusCode}`,
    url: 'http://127.0.0.1/v1/embeddings',
    requestBodyValues: {},
    statusCode,
    ...(responseHeaders ? { responseHeaders } : {}),
  });
const delays = { initialDelayMs: 500, maxDelayMs: 60_000 };

describe('retryDelayMs', () => {
  it('backs off exponentially on 429, 5xx and 408, and gives up on other errors', () => {
    expect([0, 1, 2, 3].map((attempt) => retryDelayMs(apiError(429), attempt, delays))).toEqual([
      500, 1000, 2000, 4000,
    ]);
    expect(retryDelayMs(apiError(500), 0, delays)).toBe(500);
    expect(retryDelayMs(apiError(503), 10, delays)).toBe(60_000);
    expect(retryDelayMs(apiError(408), 0, delays)).toBe(500);
    expect(retryDelayMs(apiError(400), 0, delays)).toBeUndefined();
    expect(retryDelayMs(apiError(401), 0, delays)).toBeUndefined();
    expect(retryDelayMs(new Error('not an HTTP failure'), 0, delays)).toBeUndefined();
  });

  it('waits what Retry-After or retry-after-ms asks, within the longest wait', () => {
    expect(retryDelayMs(apiError(429, { 'retry-after': '3' }), 0, delays)).toBe(3000);
    expect(retryDelayMs(apiError(429, { 'Retry-After': '0' }), 4, delays)).toBe(0);
    expect(retryDelayMs(apiError(503, { 'retry-after-ms': '120' }), 2, delays)).toBe(120);
    expect(retryDelayMs(apiError(429, { 'retry-after-ms': '5', 'retry-after': '9' }), 0, delays)).toBe(5);
    expect(retryDelayMs(apiError(429, { 'retry-after': '3600' }), 0, delays)).toBe(60_000);
    const date = new Date(Date.now() + 10_000).toUTCString();
    const fromDate = retryDelayMs(apiError(429, { 'retry-after': date }), 0, delays)!;
    expect(fromDate).toBeGreaterThan(8_000);
    expect(fromDate).toBeLessThanOrEqual(10_000);
    expect(retryDelayMs(apiError(429, { 'retry-after': 'soon' }), 1, delays)).toBe(1000);
  });
});

describe('CachedEmbedder', () => {
  it('keeps at most `concurrency` calls in flight over every embed at once, and embeds a text once', async () => {
    let active = 0;
    let most = 0;
    const inputs: string[] = [];
    const model = new MockEmbeddingModelV4({
      maxEmbeddingsPerCall: 100,
      doEmbed: async ({ values }) => {
        active++;
        most = Math.max(most, active);
        inputs.push(...values);
        await new Promise((resolve) => setTimeout(resolve, 5));
        active--;
        return { embeddings: values.map((v) => [v.length, 1]), warnings: [] };
      },
    });
    const directory = await mkdtemp(join(tmpdir(), 'weft-cached-embedder-'));
    try {
      const cache = await EmbeddingCache.open(directory);
      const progress: number[] = [];
      const embedder = new CachedEmbedder(model, {
        namespace: 'mock',
        cache,
        batchSize: 3,
        concurrency: 2,
        onProgress: (done) => progress.push(done),
      });
      const texts = Array.from({ length: 20 }, (_, i) => `text ${i % 15}`);
      const [a, b] = await Promise.all([embedder.embed(texts.slice(0, 10)), embedder.embed(texts.slice(10))]);
      expect(most).toBe(2);
      expect(progress.at(-1)).toBe(20);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
      expect([...a!, ...b!].map((v) => Array.from(v))).toEqual(texts.map((t) => [t.length, 1]));
      expect(embedder.statistics).toMatchObject({
        texts: 20,
        cacheHits: 5,
        cacheMisses: 15,
        calls: 6,
        retries: 0,
      });
      // Each of the 15 distinct texts was sent once: repeats inside a run come from the cache.
      expect(new Set(inputs).size).toBe(15);
      expect(inputs).toHaveLength(15);
      cache.close();
      const reopened = await EmbeddingCache.open(directory);
      const again = new CachedEmbedder(model, { namespace: 'mock', cache: reopened });
      await again.embed(texts);
      expect(inputs).toHaveLength(15);
      expect(again.statistics).toMatchObject({ cacheHits: 20, cacheMisses: 0, calls: 0 });
      // Another namespace (another embedder) shares nothing.
      await new CachedEmbedder(model, { namespace: 'other', cache: reopened }).embed(['text 1']);
      expect(inputs).toHaveLength(16);
      reopened.close();
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('retries a 429 and fails at once on a 400, naming the embedder', async () => {
    let calls = 0;
    const model = new MockEmbeddingModelV4({
      doEmbed: async ({ values }) => {
        calls++;
        if (calls === 1) throw apiError(429, { 'retry-after-ms': '1' });
        if (values.includes('bad')) throw apiError(400);
        return { embeddings: values.map(() => [1, 0]), warnings: [] };
      },
    });
    const retried: number[] = [];
    const embedder = new CachedEmbedder(model, { namespace: 'mock', onRetry: (_e, ms) => retried.push(ms) });
    expect(await embedder.embed(['a', 'b'])).toHaveLength(2);
    expect(retried).toEqual([1]);
    expect(embedder.statistics).toMatchObject({ calls: 1, retries: 1, cacheMisses: 2 });
    await expect(embedder.embed(['bad'])).rejects.toThrow(
      /embedding with mock-provider:mock-model-id failed \(HTTP 400\) after 1 attempt/,
    );
  });
});
