// Metering lives in @weft/core, whose pipeline meters every stage; it is re-exported here so that
// everything about models is one import away.
export {
  LlmMeter,
  type LlmUsage,
  type MeteringMiddlewareOptions,
  meterEmbeddingModel,
  meteringMiddleware,
  meterLanguageModel,
  purposeOptions,
  withMeters,
} from '@weft/core';
export { type CallStructuredOptions, callStructured, type StructuredResult } from './call-structured.ts';
export { type CallTextOptions, callText, looksLikeRefusal, type TextCallResult } from './call-text.ts';
export type { CassetteRequest } from './cassette-key.ts';
export { describeSchema } from './describe-schema.ts';
export { fencedBlock } from './extract-json.ts';
export { defaultUnsureThreshold, isLlmWhen, type LlmWhen, llmWhenValues } from './llm-when.ts';
export type { ModelFailure, ModelFailureReason } from './model-failure.ts';
export {
  type CreateLanguageModelOptions,
  createLanguageModel,
  type ModelSpec,
  modelSpecSyntax,
  parseModelSpec,
} from './model-spec.ts';
export {
  type CassetteMode,
  cassetteModel,
  type RecordReplayOptions,
  recordReplayMiddleware,
  replayLanguageModel,
} from './record-replay-middleware.ts';
export { type GroundedName, type SchemaNames, schemaNames } from './schema-names.ts';
export { type PathPlanOutput, pathPlanOutputSchema } from './schemas/path-plan-output-schema.ts';
export { planPathSchema, planSchema, planTripletSchema } from './schemas/plan-schema.ts';
export { type Triplet, tripletSchema } from './schemas/triplet-schema.ts';
export {
  criticVerdictSchema,
  type ListwiseVerdict,
  listwiseVerdictSchema,
  type PairwiseVerdict,
  pairwiseVerdictSchema,
  type RelevanceVerdict,
  relevanceVerdictSchema,
} from './schemas/verdict-schema.ts';
export { estimateTokens, truncateToTokens } from './token-budget.ts';
export { untrustedText, untrustedTextNotice } from './untrusted-text.ts';
export { limitModelCalls } from './limit-model-calls.ts';
