import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from '@weft/core/test';

/** Test support: a language model whose every answer streams `deltas` (for `POST /ask` in a browser test). */
export function cannedAnswerModel(deltas: readonly string[]): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doStream: async () => {
      const parts = answerStreamParts(deltas, { input: 100, output: 10 });
      return {
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  });
}

/** The stream parts of an answer made of `deltas`, with the token usage it reports. */
export function answerStreamParts(
  deltas: readonly string[],
  tokens: { readonly input: number; readonly output: number },
): LanguageModelV4StreamPart[] {
  return [
    { type: 'text-start', id: '1' },
    ...deltas.map((delta) => ({ type: 'text-delta' as const, id: '1', delta })),
    { type: 'text-end', id: '1' },
    {
      type: 'finish',
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: {
        inputTokens: { total: tokens.input, noCache: tokens.input, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: tokens.output, text: tokens.output, reasoning: 0 },
      },
    },
  ];
}
