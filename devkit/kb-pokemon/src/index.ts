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
  queriesDirectory,
  querySetNames,
  readAnnotations,
  readHybridAnnotations,
  readQuerySet,
} from './query-sets.ts';
export {
  type CandidateJudgment,
  type HybridAnnotation,
  candidatesOf,
  EdgeIndex,
  type RelationalConstraint,
  type RelationalPart,
  type RelationStep,
  candidatesOfPaths,
  followPath,
  type RelationHop,
  type RelationPath,
  relationPaths,
} from '@weft-dev/judged-queries';
export { splitOf } from './split-of.ts';
