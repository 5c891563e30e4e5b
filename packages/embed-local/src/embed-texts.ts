import type { EmbeddingModelV4 } from '@ai-sdk/provider';
import { embedMany } from 'ai';
import { LocalEmbeddingModel } from './local-embedding-model.ts';

/**
 * Embeds many texts with any AI SDK embedding model (through `embedMany`, which batches and retries);
 * the local model is called directly, skipping the number[] copies, since indexing embeds every node.
 */
export async function embedTexts(
  model: EmbeddingModelV4,
  texts: readonly string[],
  options: {
    readonly abortSignal?: AbortSignal;
    /** Retries of the AI SDK's own (default 2); 0 when the caller retries itself. */
    readonly maxRetries?: number;
  } = {},
): Promise<ArrayLike<number>[]> {
  if (model instanceof LocalEmbeddingModel) return texts.map((text) => model.embedOne(text));
  if (texts.length === 0) return [];
  const { embeddings } = await embedMany({
    model,
    values: [...texts],
    ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
    ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
  });
  return embeddings;
}
