export {
  toWeftError,
  WeftError,
  type WeftErrorCode,
  weftErrorCodes,
  type WeftErrorOptions,
} from './errors/weft-error.ts';
export { type Fusion, reciprocalRankFusion, weightedScoreFusion } from './fusion/fusion.ts';
export { fitLogistic, type LinearModel, linearScore, sigmoid } from './learn/logistic-regression.ts';
export { seededRandom } from './learn/seeded-random.ts';
export { stableHash, stableSample } from './learn/stable-sample.ts';
export { LlmMeter, type LlmUsage } from './llm/llm-meter.ts';
export { meterEmbeddingModel } from './llm/meter-embedding-model.ts';
export { activeMeters, withMeters } from './llm/meter-scope.ts';
export { importOptionalProvider, splitBaseUrlSpec } from './llm/provider-spec.ts';
export {
  callFailure,
  type MeteringMiddlewareOptions,
  meteringMiddleware,
  meterLanguageModel,
  purposeOptions,
} from './llm/metering-middleware.ts';
export { createRetriever, retrieve, type StackDefinition } from './pipeline/create-retriever.ts';
export { emptyPlan } from './pipeline/empty-plan.ts';
export { FileArtifactStore } from './stores/file-artifact-store.ts';
export {
  assertEmbedderMatches,
  embedderId,
  narrowingTypes,
  type SearchOptions,
  searchText,
  searchVector,
  type TextSearchHelperOptions,
  textFields,
} from './stores/search.ts';
export { trigramCount, trigramSimilarity, trigrams } from './text/trigram-similarity.ts';
