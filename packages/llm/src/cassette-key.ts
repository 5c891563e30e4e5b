import { createHash } from 'node:crypto';
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';

/** The parts of a call that decide its answer: no abort signal, no headers (they may hold keys). */
export type CassetteRequest = Omit<LanguageModelV4CallOptions, 'abortSignal' | 'headers'>;

/** A request as it is stored and compared: JSON-safe, keys in a fixed order. */
export function cassetteRequest(params: LanguageModelV4CallOptions): CassetteRequest {
  const { abortSignal: _signal, headers: _headers, ...rest } = params;
  return JSON.parse(canonicalJson(rest)) as CassetteRequest;
}

/** JSON with object keys sorted and binary data as base64, so equal requests serialise equally. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (item instanceof Uint8Array) return { base64: Buffer.from(item).toString('base64') };
    if (item instanceof URL) return item.href;
    if (item && typeof item === 'object' && !Array.isArray(item)) {
      return Object.fromEntries(
        Object.entries(item as Record<string, unknown>)
          .filter(([, v]) => v !== undefined)
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
      );
    }
    return item;
  });
}

/**
 * The key a call is recorded under: a hash of the canonical request. The model's name is not part
 * of it, so a cassette recorded with one model replays for any (that is the point of replaying).
 */
export function cassetteKey(params: LanguageModelV4CallOptions): string {
  return createHash('sha256')
    .update(canonicalJson(cassetteRequest(params)))
    .digest('hex')
    .slice(0, 32);
}
