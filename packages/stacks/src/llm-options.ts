import { WeftError } from '@weft/kit';
import { isLlmWhen, type LlmWhen } from '@weft/llm';
import type { RetrievalContext } from '@weft/spec';
import type { StackCreateOptions, StackStore } from './stack-registry.ts';

/** `options.llmWhen`, checked: callers without types (scripts, JSON) get a message, not a surprise. */
export function llmWhenOf(options: StackCreateOptions): LlmWhen | undefined {
  const value = options.llmWhen;
  if (value === undefined) return undefined;
  if (!isLlmWhen(value))
    throw new WeftError({
      code: 'WEFT_BAD_INPUT',
      message: `llmWhen must be unsure, always or never, got ${JSON.stringify(value)}`,
    });
  return value;
}

/** The store's context with the caller's language model, when one is configured. */
export function withModel(store: StackStore, options: StackCreateOptions): RetrievalContext {
  return { ...store.context, ...(options.languageModel ? { languageModel: options.languageModel } : {}) };
}
