import type { EmbeddingModelV4 } from '@ai-sdk/provider';
import type { LlmMeter } from './llm-meter.ts';
import { callFailure } from './metering-middleware.ts';

/**
 * An embedding model that logs every `doEmbed` call (values, tokens, latency, outcome) to `meters`.
 * Embedding calls are counted but never charged to the LLM budget: offline stacks embed queries too,
 * with a budget of 0. `provider` and `modelId` are the wrapped model's, so `embedderId` (and the
 * vector index's check of it) is unchanged.
 */
export function meterEmbeddingModel(model: EmbeddingModelV4, meters: readonly LlmMeter[]): EmbeddingModelV4 {
  return {
    specificationVersion: 'v4',
    provider: model.provider,
    modelId: model.modelId,
    get maxEmbeddingsPerCall() {
      return model.maxEmbeddingsPerCall;
    },
    get supportsParallelCalls() {
      return model.supportsParallelCalls;
    },
    async doEmbed(options) {
      const started = performance.now();
      const base = {
        kind: 'embedding' as const,
        purpose: `embed ${options.values.length} text${options.values.length === 1 ? '' : 's'}`,
        model: `${model.provider}:${model.modelId}`,
      };
      try {
        const result = await model.doEmbed(options);
        for (const meter of meters)
          meter.logCall({
            ...base,
            outcome: 'ok',
            inputTokens: result.usage?.tokens ?? 0,
            outputTokens: 0,
            durationMs: performance.now() - started,
          });
        return result;
      } catch (error) {
        for (const meter of meters)
          meter.logCall({
            ...base,
            ...callFailure(error, options.abortSignal),
            inputTokens: 0,
            outputTokens: 0,
            durationMs: performance.now() - started,
          });
        throw error;
      }
    },
  };
}
