export { type LinearFeature, linearFeatures, nameQuery } from './linear-features.ts';
export {
  LinearReranker,
  linearRerankerArtifact,
  type LinearRerankerModel,
  type LinearRerankerOptions,
  untrainedWeights,
} from './linear-reranker.ts';
export {
  type LinearRerankExample,
  type TrainLinearRerankerOptions,
  type TrainLinearRerankerReport,
  trainLinearReranker,
} from './train-linear-reranker.ts';
