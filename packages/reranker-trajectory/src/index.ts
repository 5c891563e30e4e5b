export {
  type RerankExample,
  type TrainTrajectoryRerankerOptions,
  type TrainTrajectoryRerankerResult,
  trainTrajectoryReranker,
} from './train-trajectory-reranker.ts';
export { trajectoryFeatures } from './trajectory-features.ts';
export {
  TrajectoryReranker,
  type TrajectoryRerankerModel,
  type TrajectoryRerankerOptions,
} from './trajectory-reranker.ts';
export { trajectoryRerankerArtifact } from './trajectory-reranker-artifact.ts';
