export { type Hypothesis, hypothesisFeatures } from './hypothesis-features.ts';
export {
  candidateSpans,
  type LinkedNode,
  type Linking,
  type LinkingOptions,
  linkQuery,
  type Span,
} from './hypotheses.ts';
export {
  type MetapathHop,
  type MetapathKey,
  metapathKey,
  oneHopMetapaths,
  parseMetapath,
} from './metapath.ts';
export {
  assemblePlan,
  predictTargetTypes,
  SchemaPlanner,
  type SchemaPlannerOptions,
  type SchemaPlannerSettings,
  scoreHypotheses,
} from './schema-planner.ts';
export { schemaPlannerArtifact } from './schema-planner-artifact.ts';
export type { SchemaPlannerModel } from './schema-planner-model.ts';
export { type TrainSchemaPlannerOptions, trainSchemaPlanner } from './train-schema-planner.ts';
