import type { SkbNode, SkbSchema } from '@weft/spec';
import { WeftError } from '@weft/core';
import type { IndexManifest, OpenedIndexes } from './store-manifest.ts';

export interface BuildIndexesOptions {
  /** `<store>/index` of the store being built (empty, created by the caller). */
  readonly directory: string;
  readonly schema: SkbSchema;
  /** Streams the bundle's nodes; may be called more than once (e.g. fit the embedder, then write). */
  readonly nodes: () => AsyncIterable<SkbNode>;
  readonly nodeCount: number;
  /** `local` (default) or a provider spec such as `openai:text-embedding-3-small`. */
  readonly embedder: string;
  readonly onProgress?: (phase: string, done: number, total?: number) => void;
}

/**
 * Builds the text and vector indexes of a store. Placeholder until `@weft/index-lancedb` and
 * `@weft/embed-local` land: builds nothing, so stores have a graph only.
 */
export async function buildIndexes(_options: BuildIndexesOptions): Promise<IndexManifest | undefined> {
  return undefined;
}

/** Opens what `buildIndexes` built; `queryEmbedder` overrides the recorded embedder (and must match it). */
export async function openIndexes(
  _storeDirectory: string,
  indexes: IndexManifest | undefined,
  _options: { readonly queryEmbedder?: string } = {},
): Promise<OpenedIndexes> {
  throw new WeftError({
    code: 'WEFT_UNSUPPORTED',
    message: indexes ? 'this build of weft cannot open text/vector indexes' : 'the store has no text/vector indexes; re-run weft ingest',
  });
}
