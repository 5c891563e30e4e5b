import type { EmbeddingModelV4 } from '@ai-sdk/provider';
import { importOptionalProvider, parseProviderSpec, WeftError } from '@weft/kit';
import { LocalEmbeddingModel } from './local-embedding-model.ts';
import { openLocalEmbeddingModel } from './query-embedding-model.ts';

/** An optional provider package, resolved from this package (where it is a dependency). */
const loadProvider = <T>(name: string) => importOptionalProvider<T>(name, 'this embedder', (n) => import(n));

/** A parsed `--embedder` value. */
export type EmbedderSpec =
  | { readonly kind: 'local' }
  | { readonly kind: 'openai'; readonly model: string }
  | { readonly kind: 'ollama'; readonly model: string }
  | { readonly kind: 'openai-compatible'; readonly baseURL: string; readonly model: string };

export const embedderSpecSyntax =
  'local | openai:<model> | ollama:<model> | openai-compatible:<baseURL>:<model>';

/**
 * Parses `local`, `openai:text-embedding-3-small`, `ollama:nomic-embed-text` or
 * `openai-compatible:http://host:8080/v1:bge-m3` (the model is what follows the URL's path): the
 * syntax of `--model` (`parseProviderSpec` of `@weft/kit`) plus `local`.
 */
export function parseEmbedderSpec(spec: string): EmbedderSpec {
  if (spec.trim() === 'local') return { kind: 'local' };
  return parseProviderSpec(spec, {
    field: 'embedder',
    providers: ['openai', 'ollama'] as const,
    syntax: embedderSpecSyntax,
  });
}

export interface CreateEmbeddingModelOptions {
  /** Where the fitted local embedder lives (for `local`). */
  readonly localDirectory?: string;
  /**
   * For `local`: the dimensions the caller expects. When given, the model is read from
   * `localDirectory` at its first embedding call, not now (see `openLocalEmbeddingModel`).
   */
  readonly localDimensions?: number;
  /** Environment for API keys and base URLs; `process.env` by default. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * The AI SDK embedding model a spec names. Hosted and local-server providers are loaded on demand,
 * so they stay optional; `local` loads the model fitted at ingest from `localDirectory`.
 */
export async function createEmbeddingModel(
  spec: string | EmbedderSpec,
  options: CreateEmbeddingModelOptions = {},
): Promise<EmbeddingModelV4> {
  const parsed = typeof spec === 'string' ? parseEmbedderSpec(spec) : spec;
  const env = options.env ?? process.env;
  switch (parsed.kind) {
    case 'local':
      if (!options.localDirectory) {
        throw new WeftError({
          code: 'WEFT_BAD_INPUT',
          message: 'the local embedder is fitted at ingest; no fitted model directory was given',
        });
      }
      return options.localDimensions === undefined
        ? LocalEmbeddingModel.load(options.localDirectory)
        : openLocalEmbeddingModel(options.localDirectory, options.localDimensions);
    case 'openai': {
      const { createOpenAI } = await loadProvider<typeof import('@ai-sdk/openai')>('@ai-sdk/openai');
      return createOpenAI({
        ...(env.OPENAI_API_KEY ? { apiKey: env.OPENAI_API_KEY } : {}),
        ...(env.OPENAI_BASE_URL ? { baseURL: env.OPENAI_BASE_URL } : {}),
      }).embedding(parsed.model);
    }
    case 'ollama': {
      const { createOllama } =
        await loadProvider<typeof import('ollama-ai-provider-v2')>('ollama-ai-provider-v2');
      return createOllama(env.OLLAMA_BASE_URL ? { baseURL: env.OLLAMA_BASE_URL } : {}).embedding(
        parsed.model,
      );
    }
    case 'openai-compatible': {
      const { createOpenAICompatible } =
        await loadProvider<typeof import('@ai-sdk/openai-compatible')>('@ai-sdk/openai-compatible');
      return createOpenAICompatible({
        name: 'openai-compatible',
        baseURL: parsed.baseURL,
        ...(env.OPENAI_COMPATIBLE_API_KEY ? { apiKey: env.OPENAI_COMPATIBLE_API_KEY } : {}),
      }).embeddingModel(parsed.model);
    }
  }
}
