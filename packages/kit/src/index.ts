export { ArtifactCache } from './artifacts/artifact-cache.ts';
export {
  type ArtifactDefinition,
  type ArtifactEnvelope,
  type ArtifactLoad,
  artifactEnvelope,
  artifactName,
  type DefineArtifactOptions,
  defineArtifact,
  loadArtifact,
} from './artifacts/artifacts.ts';
export { type BalancedQuery, balancedQueries } from './training/balanced-queries.ts';
export { type CollectExamplesOptions, collectExamples } from './training/collect-examples.ts';
export { spread } from './training/spread.ts';
