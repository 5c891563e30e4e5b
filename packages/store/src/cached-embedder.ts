import { APICallError, type EmbeddingModelV4 } from '@ai-sdk/provider';
import { embedTexts, parseEmbedderSpec } from '@weft/embed-local';
import { embedderId, WeftError } from '@weft/kit';
import { type EmbeddingCache, embeddingCacheKey } from './embedding-cache.ts';

/** How a hosted embedder (`--embedder provider:model`) is called. */
export interface RemoteEmbeddingOptions {
  /** Texts per embedding call (default 256). */
  readonly batchSize?: number;
  /** Embedding calls in flight at once (default 4). */
  readonly concurrency?: number;
  /** Retries of a call that failed with 408, 409, 429, a 5xx or a network error (default 6). */
  readonly maxRetries?: number;
  /**
   * Back-off before the first retry, doubled at each next one (default 500 ms). A `Retry-After`
   * (seconds or an HTTP date) or `retry-after-ms` header of the failed response is waited instead.
   */
  readonly initialRetryDelayMs?: number;
  /** The longest wait before a retry, whatever the server asks (default 60,000 ms). */
  readonly maxRetryDelayMs?: number;
}

/** What embedding cost: texts asked for, cache hits and misses, calls made and retried. */
export interface EmbeddingStats {
  /** Texts asked for (one per node). */
  readonly texts: number;
  /** Texts whose vector came from the cache (or from an identical text embedded earlier in the run). */
  readonly cacheHits: number;
  /** Texts sent to the embedder. */
  readonly cacheMisses: number;
  /** Embedding calls that succeeded, and retries after failed ones. */
  readonly calls: number;
  readonly retries: number;
  /** The cache folder, when there is one. */
  readonly cache?: string;
}

/** Positions that wait for the texts of `missing`. */
function waitingPositions(missing: ReadonlyMap<string, { readonly at: readonly number[] }>): number {
  let count = 0;
  for (const { at } of missing.values()) count += at.length;
  return count;
}

export const defaultRemoteEmbedding = {
  batchSize: 256,
  concurrency: 4,
  maxRetries: 6,
  initialRetryDelayMs: 500,
  maxRetryDelayMs: 60_000,
} as const satisfies Required<RemoteEmbeddingOptions>;

/**
 * The cache namespace of a hosted embedder: its AI SDK id and its spec (an `openai-compatible`
 * spec holds the server's URL), and the base URL the environment gives the provider. Vectors of a
 * model replaced on the server under the same name are not told apart: use another cache then.
 */
export function remoteEmbedderNamespace(
  spec: string,
  model: EmbeddingModelV4,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  const parsed = parseEmbedderSpec(spec);
  const baseURL =
    parsed.kind === 'openai'
      ? env.OPENAI_BASE_URL
      : parsed.kind === 'ollama'
        ? env.OLLAMA_BASE_URL
        : undefined;
  return JSON.stringify({ id: embedderId(model), spec: parsed, ...(baseURL ? { baseURL } : {}) });
}

/**
 * How long to wait before retrying a failed embedding call (`attempt` = 0 for the first retry), or
 * undefined when the failure is not worth a retry (a 4xx other than 408/409/429, a bad response).
 * A `retry-after-ms` or `Retry-After` header is honoured up to `maxDelayMs`.
 */
export function retryDelayMs(
  error: unknown,
  attempt: number,
  options: { readonly initialDelayMs: number; readonly maxDelayMs: number },
): number | undefined {
  if (!APICallError.isInstance(error) || !error.isRetryable) return undefined;
  const backoff = Math.min(options.maxDelayMs, options.initialDelayMs * 2 ** attempt);
  const headers = error.responseHeaders ?? {};
  const header = (name: string) => Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  let asked: number | undefined;
  const ms = header('retry-after-ms');
  if (ms !== undefined && Number.isFinite(Number.parseFloat(ms))) asked = Number.parseFloat(ms);
  const after = header('retry-after');
  if (asked === undefined && after !== undefined) {
    const seconds = Number(after.trim());
    asked = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(after) - Date.now();
  }
  if (asked === undefined || Number.isNaN(asked)) return backoff;
  return Math.min(options.maxDelayMs, Math.max(0, asked));
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * A hosted embedder called through the AI SDK (`embedMany`), paid for once per text: each text is
 * looked up in the cache first; the others are sent in batches of `batchSize`, at most
 * `concurrency` calls in flight (over every `embed` running at once), each retried with exponential
 * back-off on 429, 5xx and network failures, and every batch is appended to the cache as soon as it
 * returns. So an ingest killed midway, run again, embeds only what it had not received.
 */
export class CachedEmbedder {
  readonly model: EmbeddingModelV4;
  readonly cache: EmbeddingCache | undefined;
  readonly namespace: string;
  private readonly options: Required<RemoteEmbeddingOptions>;
  private readonly abortSignal: AbortSignal | undefined;
  private readonly onRetry: ((error: unknown, delayMs: number) => void) | undefined;
  private readonly onProgress: ((done: number) => void) | undefined;
  private done = 0;
  private dimensions: number | undefined;
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  /** Texts being embedded now → their vector. */
  private readonly running = new Map<string, Promise<ArrayLike<number>>>();
  private stats = { texts: 0, cacheHits: 0, cacheMisses: 0, calls: 0, retries: 0 };

  constructor(
    model: EmbeddingModelV4,
    options: RemoteEmbeddingOptions & {
      readonly namespace: string;
      readonly cache?: EmbeddingCache;
      /** The vectors' size when known (e.g. a store's): cached vectors of another size are not used. */
      readonly dimensions?: number;
      readonly abortSignal?: AbortSignal;
      /** Called before each retry's wait (e.g. to say so on the progress line). */
      readonly onRetry?: (error: unknown, delayMs: number) => void;
      /** Called as texts get their vectors: how many so far (from the cache or embedded). */
      readonly onProgress?: (done: number) => void;
    },
  ) {
    this.model = model;
    this.cache = options.cache;
    this.namespace = options.namespace;
    this.abortSignal = options.abortSignal;
    this.onRetry = options.onRetry;
    this.dimensions = options.dimensions;
    this.onProgress = options.onProgress;
    const pick = <K extends keyof RemoteEmbeddingOptions>(key: K) => {
      const value = options[key] ?? defaultRemoteEmbedding[key];
      if (!Number.isFinite(value) || value < (key === 'batchSize' || key === 'concurrency' ? 1 : 0))
        throw new WeftError({
          code: 'WEFT_BAD_INPUT',
          message: `${key} must be a number ≥ ${key === 'batchSize' || key === 'concurrency' ? 1 : 0}, not ${value}`,
        });
      return value;
    };
    this.options = {
      batchSize: Math.floor(pick('batchSize')),
      concurrency: Math.floor(pick('concurrency')),
      maxRetries: Math.floor(pick('maxRetries')),
      initialRetryDelayMs: pick('initialRetryDelayMs'),
      maxRetryDelayMs: pick('maxRetryDelayMs'),
    };
  }

  /** Texts per embedding call. */
  get batchSize(): number {
    return this.options.batchSize;
  }

  /** Embedding calls in flight at once. */
  get concurrency(): number {
    return this.options.concurrency;
  }

  get statistics(): EmbeddingStats {
    return { ...this.stats, ...(this.cache ? { cache: this.cache.directory } : {}) };
  }

  /** The vectors of `texts`, in order. */
  async embed(texts: readonly string[]): Promise<ArrayLike<number>[]> {
    const vectors: (ArrayLike<number> | undefined)[] = new Array(texts.length);
    /** Texts to embed (each once) → the positions that want them. */
    const missing = new Map<string, { key: Buffer; at: number[] }>();
    /** Texts another `embed` running now is embedding: their vectors are awaited, not asked again. */
    const elsewhere: Promise<void>[] = [];
    texts.forEach((text, i) => {
      const pending = missing.get(text);
      if (pending) {
        pending.at.push(i);
        return;
      }
      const key = embeddingCacheKey(this.namespace, text);
      const cached = this.cache?.get(key, this.dimensions);
      if (cached) {
        this.dimensions ??= cached.length;
        vectors[i] = cached;
        return;
      }
      const running = this.running.get(text);
      if (running) {
        elsewhere.push(
          running.then((vector) => {
            vectors[i] = vector;
          }),
        );
        return;
      }
      missing.set(text, { key, at: [i] });
    });
    this.stats.texts += texts.length;
    this.stats.cacheMisses += missing.size;
    this.stats.cacheHits += texts.length - missing.size;
    this.report(texts.length - waitingPositions(missing));
    const entries = [...missing];
    const batches: (typeof entries)[] = [];
    for (let i = 0; i < entries.length; i += this.options.batchSize)
      batches.push(entries.slice(i, i + this.options.batchSize));
    const calls = batches.map(async (batch) => {
      const embedded = await this.call(batch.map(([text]) => text));
      this.cache?.put(batch.map(([, { key }], i) => ({ key, vector: embedded[i]! })));
      let count = 0;
      batch.forEach(([, { at }], i) => {
        for (const position of at) vectors[position] = embedded[i]!;
        count += at.length;
      });
      this.report(count);
      return embedded;
    });
    for (const [b, batch] of batches.entries()) {
      for (const [i, [text]] of batch.entries()) {
        const vector = calls[b]!.then((embedded) => embedded[i]!);
        vector.catch(() => {});
        this.running.set(text, vector);
      }
    }
    try {
      await Promise.all([...calls, ...elsewhere]);
    } finally {
      for (const [text] of entries) this.running.delete(text);
    }
    return vectors as ArrayLike<number>[];
  }

  private report(count: number): void {
    if (count === 0) return;
    this.done += count;
    this.onProgress?.(this.done);
  }

  /** One embedding call (within the concurrency bound), retried while it fails in a retryable way. */
  private async call(texts: readonly string[]): Promise<ArrayLike<number>[]> {
    await this.acquire();
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          const vectors = await embedTexts(this.model, texts, {
            maxRetries: 0,
            ...(this.abortSignal ? { abortSignal: this.abortSignal } : {}),
          });
          this.stats.calls++;
          this.checkDimensions(vectors, texts.length);
          return vectors;
        } catch (error) {
          if (this.abortSignal?.aborted) throw error;
          const delay =
            attempt < this.options.maxRetries
              ? retryDelayMs(error, attempt, {
                  initialDelayMs: this.options.initialRetryDelayMs,
                  maxDelayMs: this.options.maxRetryDelayMs,
                })
              : undefined;
          if (delay === undefined) throw this.failure(error, attempt);
          this.stats.retries++;
          this.onRetry?.(error, delay);
          await sleep(delay, this.abortSignal);
        }
      }
    } finally {
      this.release();
    }
  }

  private checkDimensions(vectors: readonly ArrayLike<number>[], expected: number): void {
    if (vectors.length !== expected)
      throw new WeftError({
        code: 'WEFT_STAGE_FAILED',
        message: `the embedder ${embedderId(this.model)} returned ${vectors.length} vectors for ${expected} texts`,
      });
    for (const vector of vectors) {
      this.dimensions ??= vector.length;
      if (vector.length !== this.dimensions)
        throw new WeftError({
          code: 'WEFT_EMBEDDER_MISMATCH',
          message: `the embedder ${embedderId(this.model)} returned a vector of ${vector.length} dimensions where the others (or the cache's, ${this.cache?.directory ?? 'none'}) have ${this.dimensions}; use another --embedding-cache if the model changed under its name`,
        });
    }
  }

  private failure(error: unknown, attempt: number): unknown {
    if (error instanceof WeftError) return error;
    const status = APICallError.isInstance(error) ? ` (HTTP ${error.statusCode ?? '?'})` : '';
    const reason = error instanceof Error ? error.message : String(error);
    return new WeftError({
      code: 'WEFT_STAGE_FAILED',
      message: `embedding with ${embedderId(this.model)} failed${status} after ${attempt + 1} attempt${attempt === 0 ? '' : 's'}: ${reason}${this.cache ? `; what was embedded before is kept in the cache (${this.cache.directory}), so a re-run embeds only the rest` : ''}`,
      cause: error,
    });
  }

  private async acquire(): Promise<void> {
    if (this.active < this.options.concurrency) {
      this.active++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }
}
