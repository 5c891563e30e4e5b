// The errors are the kit's, where every stage can throw them without the pipeline; the pipeline's
// users get them here too (as `ai` re-exports the errors of `@ai-sdk/provider`).
export {
  toWeftError,
  WeftError,
  type WeftErrorCode,
  weftErrorCodes,
  type WeftErrorOptions,
} from '@weft/kit';
export { LlmMeter, type LlmUsage } from './llm/llm-meter.ts';
export { meterEmbeddingModel } from './llm/meter-embedding-model.ts';
export { withMeters } from './llm/meter-scope.ts';
export {
  type MeteringMiddlewareOptions,
  meteringMiddleware,
  meterLanguageModel,
  purposeOptions,
} from './llm/metering-middleware.ts';
export { createRetriever, retrieve, type StackDefinition } from './pipeline/create-retriever.ts';
export { FileArtifactStore } from './stores/file-artifact-store.ts';
