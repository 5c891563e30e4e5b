import { type ArtifactLoad, artifactEnvelope, loadArtifact } from '@weft/core';
import type { ArtifactStore } from '@weft/spec';
import { gateFeatures } from './route-gate.ts';
import { trajectoryFeatures } from './trajectory-features.ts';
import type { TrajectoryRerankerModel } from './trajectory-reranker-model.ts';

/**
 * How the reranker's model is stored (`artifactEnvelope`). Version 1 was a bare object; bump the
 * version whenever `TrajectoryRerankerModel` changes shape or meaning, so older stores say "stale".
 */
export const trajectoryRerankerFormat = { kind: 'reranker-trajectory', version: 2 } as const;

/** Stores a fitted model under `name` (the name the stack gives its `TrajectoryReranker`). */
export async function saveTrajectoryRerankerModel(
  artifacts: ArtifactStore,
  name: string,
  model: TrajectoryRerankerModel,
): Promise<void> {
  await artifacts.put(
    name,
    artifactEnvelope(trajectoryRerankerFormat.kind, trajectoryRerankerFormat.version, model),
  );
}

/**
 * Reads the reranker's model, and says why it cannot be used: not trained, another format version,
 * or fitted on other features than this reranker computes (it would weigh the wrong columns).
 */
export async function loadTrajectoryRerankerModel(
  artifacts: ArtifactStore | undefined,
  name: string,
): Promise<ArtifactLoad<TrajectoryRerankerModel>> {
  const loaded = await loadArtifact<TrajectoryRerankerModel>(artifacts, name, trajectoryRerankerFormat);
  if (loaded.status !== 'loaded') return loaded;
  const { linear, gate } = loaded.value;
  if (
    linear.features.join() !== trajectoryFeatures.join() ||
    (gate !== undefined && gate.features.join() !== gateFeatures.join())
  ) {
    return {
      status: 'stale',
      found: { ...trajectoryRerankerFormat },
      message: `artifact "${name}" was fitted on other features than this reranker computes; re-run weft train (fixed weights apply)`,
    };
  }
  return loaded;
}
