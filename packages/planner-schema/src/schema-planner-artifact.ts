import { defineArtifact } from '@weft/kit';
import { hypothesisFeatures } from './hypothesis-features.ts';
import type { SchemaPlannerModel } from './schema-planner-model.ts';

/**
 * How the planner's model is stored. Version 1 was a bare object; bump the version whenever
 * `SchemaPlannerModel` changes shape or meaning, so older stores say "stale". A model fitted on
 * other hypothesis features than this planner computes is stale too (it would score the wrong
 * columns).
 */
export const schemaPlannerArtifact = defineArtifact<SchemaPlannerModel>({
  kind: 'planner-schema',
  // 3: the cue models are the kit's naive Bayes (counts), no longer log-likelihood tables.
  version: 3,
  check: (model) =>
    model.hypothesis.features.join() === hypothesisFeatures.join()
      ? undefined
      : 'was fitted on other hypothesis features than this planner computes',
});
