import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { LanguageModelV4GenerateResult, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { WeftError } from '@weft/kit';
import type { CassetteRequest } from './cassette-key.ts';

/** A provider failure as recorded: enough to replay it as the same kind of failure. */
export interface RecordedError {
  readonly name: string;
  readonly message: string;
  /** HTTP status of an API call error. */
  readonly statusCode?: number;
  /** The system error code underneath (e.g. `ECONNREFUSED`): what tells "unreachable" apart. */
  readonly code?: string;
}

export type RecordedResponse =
  | { readonly kind: 'generate'; readonly result: unknown }
  | { readonly kind: 'stream'; readonly parts: readonly unknown[] }
  | { readonly kind: 'error'; readonly error: RecordedError };

/** One line of a cassette (JSONL): a request and what the model answered. */
export interface CassetteEntry {
  readonly key: string;
  /** `provider:modelId` of the model that answered, for people. */
  readonly model: string;
  readonly purpose?: string;
  readonly request: CassetteRequest;
  readonly response: RecordedResponse;
  /** How long the model took, in milliseconds (replayed with `latency: 'recorded'`). */
  readonly durationMs?: number;
  readonly recordedAt: string;
}

/** Dates do not survive JSON: response timestamps are stored as ISO strings and revived. */
function reviveTimestamps<T>(value: T): T {
  if (!value || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  if (typeof record.timestamp === 'string') return { ...record, timestamp: new Date(record.timestamp) } as T;
  if (record.response && typeof record.response === 'object')
    return { ...record, response: reviveTimestamps(record.response) } as T;
  return value;
}

export function generateResultOf(
  response: RecordedResponse & { kind: 'generate' },
): LanguageModelV4GenerateResult {
  return reviveTimestamps(response.result) as LanguageModelV4GenerateResult;
}

export function streamPartsOf(response: RecordedResponse & { kind: 'stream' }): LanguageModelV4StreamPart[] {
  return response.parts.map((part) => reviveTimestamps(part) as LanguageModelV4StreamPart);
}

/** What a recorded generate result keeps: no raw request or response bodies (bulky, may hold secrets). */
export function recordableGenerate(result: LanguageModelV4GenerateResult): unknown {
  const { request: _request, response, ...rest } = result;
  const { body: _body, headers: _headers, ...meta } = response ?? {};
  return JSON.parse(JSON.stringify({ ...rest, ...(response ? { response: meta } : {}) }));
}

export function recordableError(error: unknown): RecordedError {
  const value = (error ?? {}) as {
    name?: unknown;
    message?: unknown;
    statusCode?: unknown;
    code?: unknown;
    cause?: { code?: unknown; cause?: { code?: unknown } };
  };
  const code = [value.code, value.cause?.code, value.cause?.cause?.code].find((c) => typeof c === 'string');
  return {
    name: typeof value.name === 'string' ? value.name : 'Error',
    message: typeof value.message === 'string' ? value.message : String(error),
    ...(typeof value.statusCode === 'number' ? { statusCode: value.statusCode } : {}),
    ...(typeof code === 'string' ? { code } : {}),
  };
}

/** A recorded failure thrown again on replay, with the same name, status and system code. */
export function replayedError(recorded: RecordedError): Error {
  const error = new Error(recorded.message, recorded.code ? { cause: { code: recorded.code } } : undefined);
  error.name = recorded.name;
  if (recorded.statusCode !== undefined) Object.assign(error, { statusCode: recorded.statusCode });
  return error;
}

/** Reads a cassette; a missing file is an empty cassette, a malformed line an error that names it. */
export async function readCassette(file: string): Promise<CassetteEntry[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const entries: CassetteEntry[] = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    try {
      const entry = JSON.parse(line) as CassetteEntry;
      if (typeof entry.key !== 'string' || !entry.response) throw new Error('no key or response');
      entries.push(entry);
    } catch (error) {
      throw new WeftError({
        code: 'WEFT_BAD_INPUT',
        message: `cassette ${file}, line ${i + 1}: not a recorded call (${error instanceof Error ? error.message : String(error)})`,
        details: { file, line: i + 1 },
      });
    }
  });
  return entries;
}

/**
 * Appends entries to a cassette, one write at a time (concurrent retrievals record into one file),
 * starting the file afresh on the first write when asked to.
 */
export class CassetteWriter {
  private readonly file: string;
  private truncate: boolean;
  private queue: Promise<void> = Promise.resolve();

  constructor(file: string, options: { readonly truncate: boolean }) {
    this.file = file;
    this.truncate = options.truncate;
  }

  append(entry: CassetteEntry): Promise<void> {
    const line = `${JSON.stringify(entry)}\n`;
    this.queue = this.queue.then(async () => {
      await mkdir(path.dirname(this.file), { recursive: true });
      if (this.truncate) {
        this.truncate = false;
        await writeFile(this.file, line);
      } else await appendFile(this.file, line);
    });
    return this.queue;
  }
}
