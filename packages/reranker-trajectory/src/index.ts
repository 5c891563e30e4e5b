export {
  type RerankExample,
  type TrainTrajectoryRerankerOptions,
  type TrainTrajectoryRerankerResult,
  trainTrajectoryReranker,
} from './train-trajectory-reranker.ts';
export { featureRows, trajectoryFeatures } from './trajectory-features.ts';
export {
  TrajectoryReranker,
  type TrajectoryRerankerModel,
  type TrajectoryRerankerOptions,
  trajectoryRerankerArtifact,
} from './trajectory-reranker.ts';
