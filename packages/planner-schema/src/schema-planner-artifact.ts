import { type ArtifactLoad, artifactEnvelope, loadArtifact } from '@weft/core';
import type { ArtifactStore } from '@weft/spec';
import { hypothesisFeatures } from './hypothesis-features.ts';
import type { SchemaPlannerModel } from './schema-planner-model.ts';

/**
 * How the planner's model is stored (`artifactEnvelope`). Version 1 was a bare object; bump the
 * version whenever `SchemaPlannerModel` changes shape or meaning, so older stores say "stale".
 */
export const schemaPlannerFormat = { kind: 'planner-schema', version: 2 } as const;

/** Stores a fitted model under `name` (the name the stack gives its `SchemaPlanner`). */
export async function saveSchemaPlannerModel(
  artifacts: ArtifactStore,
  name: string,
  model: SchemaPlannerModel,
): Promise<void> {
  await artifacts.put(name, artifactEnvelope(schemaPlannerFormat.kind, schemaPlannerFormat.version, model));
}

/**
 * Reads the planner's model, and says why it cannot be used: not trained, another format version,
 * or fitted on other hypothesis features than this planner computes (it would score the wrong
 * columns).
 */
export async function loadSchemaPlannerModel(
  artifacts: ArtifactStore | undefined,
  name: string,
): Promise<ArtifactLoad<SchemaPlannerModel>> {
  const loaded = await loadArtifact<SchemaPlannerModel>(artifacts, name, schemaPlannerFormat);
  if (loaded.status === 'loaded' && loaded.value.hypothesis.features.join() !== hypothesisFeatures.join()) {
    return {
      status: 'stale',
      found: { ...schemaPlannerFormat },
      message: `artifact "${name}" was fitted on other hypothesis features than this planner computes; re-run weft train (untrained defaults apply)`,
    };
  }
  return loaded;
}
