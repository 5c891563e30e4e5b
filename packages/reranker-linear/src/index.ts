export {
  featureRows,
  type LinearFeature,
  linearFeatures,
  linearScoreKeys,
  mentionGate,
  nameQuery,
} from './linear-features.ts';
export {
  LinearReranker,
  linearRerankerArtifact,
  type LinearRerankerModel,
  type LinearRerankerOptions,
  untrainedLinearScore,
  untrainedWeights,
} from './linear-reranker.ts';
export {
  type LinearRerankExample,
  type TrainLinearRerankerOptions,
  type TrainLinearRerankerReport,
  trainLinearReranker,
} from './train-linear-reranker.ts';
