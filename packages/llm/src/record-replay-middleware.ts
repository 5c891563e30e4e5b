import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Middleware,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import { WeftError } from '@weft/kit';
import { simulateReadableStream, wrapLanguageModel } from 'ai';
import {
  type CassetteEntry,
  CassetteWriter,
  generateResultOf,
  readCassette,
  recordableError,
  recordableGenerate,
  replayedError,
  streamPartsOf,
} from './cassette.ts';
import { cassetteKey, cassetteRequest } from './cassette-key.ts';

/**
 * - `record`: every call goes to the model and is written to the cassette, which starts afresh;
 * - `replay`: every call is answered from the cassette, the model is never called, and a call the
 *   cassette lacks fails with `WEFT_NOT_FOUND` ("cassette miss");
 * - `auto`: answered from the cassette when recorded, else made and appended.
 */
export type CassetteMode = 'record' | 'replay' | 'auto';

export interface RecordReplayOptions {
  /** The cassette file (JSONL, one call per line: request and response). */
  readonly cassette: string;
  readonly mode: CassetteMode;
  /**
   * `recorded`: a replayed call takes as long as the recorded one did (and honours the abort
   * signal meanwhile), so a slow model and the stage's time limit replay too. Default `none`.
   */
  readonly latency?: 'none' | 'recorded';
}

/** Waits `ms`, rejecting with the signal's reason when it aborts first. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
}

/** Failures that say nothing about the model (our own timeout, an abort): never recorded. */
function isInterruption(error: unknown, params: LanguageModelV4CallOptions): boolean {
  const name = (error as { name?: unknown } | undefined)?.name;
  return params.abortSignal?.aborted === true || name === 'AbortError' || name === 'TimeoutError';
}

function purposeOf(params: LanguageModelV4CallOptions): string | undefined {
  const purpose = params.providerOptions?.weft?.purpose;
  return typeof purpose === 'string' ? purpose : undefined;
}

/** The first words of the last user message: enough for people to tell which call a miss was. */
function promptStart(params: LanguageModelV4CallOptions): string {
  const user = [...params.prompt].reverse().find((m) => m.role === 'user');
  const text =
    user && Array.isArray(user.content)
      ? user.content
          .filter((p) => p.type === 'text')
          .map((p) => (p as { text: string }).text)
          .join(' ')
      : '';
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 80 ? `${flat.slice(0, 80)}…` : flat;
}

/**
 * AI SDK middleware that records every call of a run into a JSONL cassette and replays it without
 * a network (the caching recipe of the AI SDK docs, kept on disk): record one real run, then tests
 * and demos replay it. Calls are keyed by their canonical request (`cassetteKey`); a request asked
 * several times is answered in recorded order, the last answer repeating. Streams are replayed with
 * `simulateReadableStream`; provider errors are recorded and thrown again; timeouts and aborts are not
 * recorded.
 */
export function recordReplayMiddleware(options: RecordReplayOptions): LanguageModelV4Middleware {
  const { cassette, mode } = options;
  const writer =
    mode === 'replay' ? undefined : new CassetteWriter(cassette, { truncate: mode === 'record' });
  let loaded: Promise<Map<string, CassetteEntry[]>> | undefined;
  const served = new Map<string, number>();
  const recorded = () => {
    loaded ??= (mode === 'record' ? Promise.resolve([]) : readCassette(cassette)).then((entries) => {
      const byKey = new Map<string, CassetteEntry[]>();
      for (const entry of entries) {
        const list = byKey.get(entry.key) ?? [];
        list.push(entry);
        byKey.set(entry.key, list);
      }
      return byKey;
    });
    return loaded;
  };
  const lookUp = async (key: string): Promise<CassetteEntry | undefined> => {
    const list = (await recorded()).get(key);
    if (!list?.length) return undefined;
    const next = served.get(key) ?? 0;
    served.set(key, next + 1);
    return list[Math.min(next, list.length - 1)];
  };
  const replayed = async (hit: CassetteEntry, params: LanguageModelV4CallOptions) => {
    if (options.latency === 'recorded' && hit.durationMs) await pause(hit.durationMs, params.abortSignal);
    return hit;
  };
  const miss = (key: string, params: LanguageModelV4CallOptions) => {
    const purpose = purposeOf(params);
    return new WeftError({
      code: 'WEFT_NOT_FOUND',
      message: `cassette miss: ${cassette} has no recorded answer for this ${purpose ? `"${purpose}" ` : ''}request (key ${key}; prompt "${promptStart(params)}"); record it with mode "record" or "auto"`,
      details: { cassette, key, ...(purpose ? { purpose } : {}) },
    });
  };
  const entry = (
    key: string,
    params: LanguageModelV4CallOptions,
    model: LanguageModelV4,
    response: CassetteEntry['response'],
    started: number,
  ): CassetteEntry => {
    const purpose = purposeOf(params);
    return {
      key,
      model: `${model.provider}:${model.modelId}`,
      ...(purpose ? { purpose } : {}),
      request: cassetteRequest(params),
      response,
      durationMs: Math.round(performance.now() - started),
      recordedAt: new Date().toISOString(),
    };
  };

  return {
    specificationVersion: 'v4',
    async wrapGenerate({ doGenerate, params, model }) {
      const key = cassetteKey(params);
      if (mode !== 'record') {
        const found = await lookUp(key);
        const hit = found ? await replayed(found, params) : undefined;
        if (hit?.response.kind === 'generate') return generateResultOf(hit.response);
        if (hit?.response.kind === 'error') throw replayedError(hit.response.error);
        if (hit?.response.kind === 'stream')
          throw new WeftError({
            code: 'WEFT_BAD_INPUT',
            message: `cassette ${cassette}: key ${key} was recorded streamed and is replayed by doStream only`,
          });
        if (mode === 'replay') throw miss(key, params);
      }
      const started = performance.now();
      try {
        const result = await doGenerate();
        await writer!.append(
          entry(key, params, model, { kind: 'generate', result: recordableGenerate(result) }, started),
        );
        return result;
      } catch (error) {
        if (!isInterruption(error, params))
          await writer!.append(
            entry(key, params, model, { kind: 'error', error: recordableError(error) }, started),
          );
        throw error;
      }
    },
    async wrapStream({ doStream, params, model }) {
      const key = cassetteKey(params);
      if (mode !== 'record') {
        const found = await lookUp(key);
        const hit = found ? await replayed(found, params) : undefined;
        if (hit?.response.kind === 'stream')
          return { stream: simulateReadableStream({ chunks: streamPartsOf(hit.response) }) };
        if (hit?.response.kind === 'error') throw replayedError(hit.response.error);
        if (hit?.response.kind === 'generate')
          throw new WeftError({
            code: 'WEFT_BAD_INPUT',
            message: `cassette ${cassette}: key ${key} was recorded by doGenerate and is replayed by it only`,
          });
        if (mode === 'replay') throw miss(key, params);
      }
      let result: Awaited<ReturnType<typeof doStream>>;
      const started = performance.now();
      try {
        result = await doStream();
      } catch (error) {
        if (!isInterruption(error, params))
          await writer!.append(
            entry(key, params, model, { kind: 'error', error: recordableError(error) }, started),
          );
        throw error;
      }
      const parts: unknown[] = [];
      const recording = result.stream.pipeThrough(
        new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
          transform(part, controller) {
            parts.push(part.type === 'error' ? { type: 'error', error: recordableError(part.error) } : part);
            controller.enqueue(part);
          },
          async flush() {
            await writer!.append(
              entry(
                key,
                params,
                model,
                { kind: 'stream', parts: JSON.parse(JSON.stringify(parts)) },
                started,
              ),
            );
          },
        }),
      );
      return { ...result, stream: recording };
    },
  };
}

/**
 * A model that only replays `cassette`: no provider, no network. Every call must be in the
 * cassette (else `WEFT_NOT_FOUND`, a cassette miss).
 */
export function replayLanguageModel(
  cassette: string,
  options: Pick<RecordReplayOptions, 'latency'> = {},
): LanguageModelV4 {
  const unreachable = async (): Promise<never> => {
    throw new WeftError({ code: 'WEFT_UNSUPPORTED', message: 'a replay-only model makes no calls' });
  };
  return wrapLanguageModel({
    model: {
      specificationVersion: 'v4',
      provider: 'cassette',
      modelId: 'replay',
      supportedUrls: {},
      doGenerate: unreachable,
      doStream: unreachable,
    },
    middleware: recordReplayMiddleware({ cassette, mode: 'replay', ...options }),
  });
}

/**
 * A model with a cassette: `model` wrapped with `recordReplayMiddleware`, or, without a model (or
 * in `replay` mode), a replay-only model that never reaches a provider. What `--record` and
 * `--replay` of the CLI build.
 */
export function cassetteModel(
  options: RecordReplayOptions & { readonly model?: LanguageModelV4 },
): LanguageModelV4 {
  const { model, ...recordReplay } = options;
  if (!model || recordReplay.mode === 'replay') {
    if (recordReplay.mode !== 'replay')
      throw new WeftError({
        code: 'WEFT_BAD_INPUT',
        message: `recording into cassette ${recordReplay.cassette} needs a model to record`,
      });
    return replayLanguageModel(recordReplay.cassette, recordReplay);
  }
  return wrapLanguageModel({ model, middleware: recordReplayMiddleware(recordReplay) });
}
