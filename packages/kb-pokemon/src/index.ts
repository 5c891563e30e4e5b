export {
  type BuildPokemonBundleOptions,
  buildPokemonBundle,
  type PokemonBundleReport,
} from './build-pokemon-bundle.ts';
export { extractPokemonGraph, type PokemonGraph } from './extract-pokemon-graph.ts';
export { type GraphStatistics, graphStatistics, type Hub } from './graph-statistics.ts';
export { type PokemonEdgeType, type PokemonNodeType, pokemonSchema } from './pokemon-schema.ts';
export { namesSpelledIn } from './anchor-mentions.ts';
export {
  type AnnotatedSetName,
  annotatedSetNames,
  type CandidateJudgment,
  type HybridAnnotation,
  queriesDirectory,
  querySetNames,
  readAnnotations,
  readHybridAnnotations,
  readQuerySet,
} from './query-sets.ts';
export {
  candidatesOf,
  EdgeIndex,
  type RelationalConstraint,
  type RelationalPart,
  type RelationStep,
} from './relational-part.ts';
export {
  candidatesOfPaths,
  followPath,
  type RelationHop,
  type RelationPath,
  relationPaths,
} from './relation-paths.ts';
export { splitOf } from './split-of.ts';
