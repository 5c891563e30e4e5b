export type { Hypothesis } from './hypothesis-features.ts';
export type { LinkedNode, Linking, LinkingOptions, Span } from './hypotheses.ts';
export type { MetapathHop, MetapathKey } from './metapath.ts';
export { SchemaPlanner, type SchemaPlannerOptions, type SchemaPlannerSettings } from './schema-planner.ts';
export { schemaPlannerArtifact } from './schema-planner-artifact.ts';
export type { SchemaPlannerModel } from './schema-planner-model.ts';
export { type TrainSchemaPlannerOptions, trainSchemaPlanner } from './train-schema-planner.ts';
