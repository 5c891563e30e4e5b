import type { LanguageModelV4GenerateResult } from '@ai-sdk/provider';

/** A `doGenerate` result carrying `text`, with the given token usage, for `MockLanguageModelV4`. */
export function textResult(
  text: string,
  usage: { input?: number; output?: number } = {},
): LanguageModelV4GenerateResult {
  return {
    content: [{ type: 'text', text }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: {
      inputTokens: {
        total: usage.input ?? 10,
        noCache: undefined,
        cacheRead: undefined,
        cacheWrite: undefined,
      },
      outputTokens: { total: usage.output ?? 5, text: undefined, reasoning: undefined },
    },
    warnings: [],
  };
}
