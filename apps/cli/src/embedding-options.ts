import { resolve } from 'node:path';
import type { EmbeddingStats, RemoteEmbeddingOptions } from '@weft/store';
import { defaultRemoteEmbedding } from '@weft/store';
import { integerOption, type ParsedArgs, stringOption } from './command.ts';

/** The options of `weft ingest` and `weft update` about a hosted embedder and its cache. */
export const embeddingOptionSpecs = {
  'embedding-cache': { type: 'string' },
  'embed-batch': { type: 'string' },
  'embed-concurrency': { type: 'string' },
} as const;

export const embeddingOptionDetails = [
  "--embedding-cache <dir|none>  where a hosted embedder's vectors are cached (key: embedder and",
  '                   text), so no text is embedded twice: default <db>/embedding-cache, kept',
  '                   across ingests into the same --db and used by weft update; a folder of',
  '                   your own shares it between stores; none for no cache. The local embedder',
  '                   is not cached (each ingest fits it anew)',
  `--embed-batch <n>  texts per call to a hosted embedder (default ${defaultRemoteEmbedding.batchSize})`,
  `--embed-concurrency <n>  calls in flight at once (default ${defaultRemoteEmbedding.concurrency}); a call that`,
  '                   fails with 429 or 5xx is retried with back-off (its Retry-After honoured)',
];

export function embeddingOptions(
  args: ParsedArgs,
  cwd: string,
): { embeddingCache?: string | false; remoteEmbedding: RemoteEmbeddingOptions } {
  const cache = stringOption(args, 'embedding-cache');
  return {
    ...(cache === undefined ? {} : { embeddingCache: cache === 'none' ? false : resolve(cwd, cache) }),
    remoteEmbedding: {
      batchSize: integerOption(args, 'embed-batch', defaultRemoteEmbedding.batchSize, 1, 100_000),
      concurrency: integerOption(args, 'embed-concurrency', defaultRemoteEmbedding.concurrency, 1, 1_000),
    },
  };
}

/** One line about what embedding cost, or undefined for the local embedder. */
export function embeddingLine(stats: EmbeddingStats | undefined): string | undefined {
  if (!stats) return undefined;
  const retries = stats.retries > 0 ? `, ${stats.retries} ${stats.retries === 1 ? 'retry' : 'retries'}` : '';
  return `  embeddings: ${stats.texts.toLocaleString('en-US')} texts, ${stats.cacheHits.toLocaleString('en-US')} from the cache, ${stats.cacheMisses.toLocaleString('en-US')} embedded in ${stats.calls} call${stats.calls === 1 ? '' : 's'}${retries}${stats.cache ? ` (cache ${stats.cache})` : ' (no cache)'}`;
}

/** What a retry says on stderr. */
export function retryNotice(error: unknown, delayMs: number): string {
  const status =
    typeof error === 'object' && error !== null && 'statusCode' in error && error.statusCode !== undefined
      ? `HTTP ${String(error.statusCode)}`
      : error instanceof Error
        ? error.message.split('\n')[0]
        : String(error);
  return `embedding call failed (${status}); retrying in ${(delayMs / 1000).toFixed(1)} s\n`;
}
