import { defineArtifact } from '@weft/kit';
import { gateFeatures } from './route-gate.ts';
import { trajectoryFeatures } from './trajectory-features.ts';
import type { TrajectoryRerankerModel } from './trajectory-reranker-model.ts';

/**
 * How the reranker's model is stored. Version 1 was a bare object; bump the version whenever
 * `TrajectoryRerankerModel` changes shape or meaning, so older stores say "stale". A model fitted on
 * other features than this reranker computes is stale too (it would weigh the wrong columns).
 */
export const trajectoryRerankerArtifact = defineArtifact<TrajectoryRerankerModel>({
  kind: 'reranker-trajectory',
  version: 2,
  check: ({ linear, gate }) =>
    linear.features.join() !== trajectoryFeatures.join() ||
    (gate !== undefined && gate.features.join() !== gateFeatures.join())
      ? 'was fitted on other features than this reranker computes'
      : undefined,
});
