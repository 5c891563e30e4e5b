import type { LanguageModelV4 } from '@ai-sdk/provider';
import { importOptionalProvider, parseProviderSpec, WeftError } from '@weft/kit';

/** An optional provider package, resolved from this package (where it is a dependency). */
const loadProvider = <T>(name: string) => importOptionalProvider<T>(name, 'this model', (n) => import(n));

/** A parsed `--model` value. */
export type ModelSpec =
  | { readonly kind: 'openai'; readonly model: string }
  | { readonly kind: 'anthropic'; readonly model: string }
  | { readonly kind: 'ollama'; readonly model: string }
  | { readonly kind: 'openai-compatible'; readonly baseURL: string; readonly model: string };

export const modelSpecSyntax =
  'openai:<model> | anthropic:<model> | ollama:<model> | openai-compatible:<baseURL>:<model>';

/**
 * Parses `openai:gpt-4o-mini`, `anthropic:claude-haiku-4-5`, `ollama:llama3.1` or
 * `openai-compatible:http://127.0.0.1:8080/v1:llama-3.1-8b` (the model is what follows the URL's
 * path, and may itself hold ':'). The same syntax as `--embedder` (`parseProviderSpec` of `@weft/kit`).
 */
export function parseModelSpec(spec: string): ModelSpec {
  return parseProviderSpec(spec, {
    field: 'model',
    providers: ['openai', 'anthropic', 'ollama'] as const,
    syntax: modelSpecSyntax,
  });
}

export interface CreateLanguageModelOptions {
  /** Environment for API keys and base URLs; `process.env` by default. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

function requireKey(env: CreateLanguageModelOptions['env'], name: string, spec: string): string {
  const key = env?.[name];
  if (!key) {
    throw new WeftError({
      code: 'WEFT_BAD_INPUT',
      message: `model "${spec}" needs the environment variable ${name} (an API key)`,
      details: { field: 'model', env: name },
    });
  }
  return key;
}

/**
 * The AI SDK language model a spec names. Providers are optional packages loaded on demand;
 * keys and base URLs come from the environment: `OPENAI_API_KEY` (and `OPENAI_BASE_URL`, with
 * which the key may be absent), `ANTHROPIC_API_KEY` (`ANTHROPIC_BASE_URL`), `OLLAMA_BASE_URL`,
 * `OPENAI_COMPATIBLE_API_KEY`. A hosted provider without its key is refused here
 * (`WEFT_BAD_INPUT`) rather than failing on every query. Creating a model opens no connection.
 */
export async function createLanguageModel(
  spec: string | ModelSpec,
  options: CreateLanguageModelOptions = {},
): Promise<LanguageModelV4> {
  const parsed = typeof spec === 'string' ? parseModelSpec(spec) : spec;
  const text = typeof spec === 'string' ? spec : `${parsed.kind}:${parsed.model}`;
  const env = options.env ?? process.env;
  switch (parsed.kind) {
    case 'openai': {
      const baseURL = env.OPENAI_BASE_URL;
      const apiKey = baseURL ? env.OPENAI_API_KEY : requireKey(env, 'OPENAI_API_KEY', text);
      const { createOpenAI } = await loadProvider<typeof import('@ai-sdk/openai')>('@ai-sdk/openai');
      return createOpenAI({ ...(apiKey ? { apiKey } : {}), ...(baseURL ? { baseURL } : {}) }).chat(
        parsed.model,
      );
    }
    case 'anthropic': {
      const apiKey = requireKey(env, 'ANTHROPIC_API_KEY', text);
      const { createAnthropic } = await loadProvider<typeof import('@ai-sdk/anthropic')>('@ai-sdk/anthropic');
      return createAnthropic({
        apiKey,
        ...(env.ANTHROPIC_BASE_URL ? { baseURL: env.ANTHROPIC_BASE_URL } : {}),
      }).languageModel(parsed.model);
    }
    case 'ollama': {
      const { createOllama } =
        await loadProvider<typeof import('ollama-ai-provider-v2')>('ollama-ai-provider-v2');
      return createOllama(env.OLLAMA_BASE_URL ? { baseURL: env.OLLAMA_BASE_URL } : {}).languageModel(
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
      }).chatModel(parsed.model);
    }
  }
}
