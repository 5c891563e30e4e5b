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
export {
  toWeftError,
  WeftError,
  type WeftErrorCode,
  weftErrorCodes,
  type WeftErrorOptions,
} from './errors/weft-error.ts';
export { type Fusion, reciprocalRankFusion, weightedScoreFusion } from './fusion/fusion.ts';
export { fitLogistic, type LinearModel, linearScore, sigmoid } from './learn/logistic-regression.ts';
export { seededRandom } from './learn/seeded-random.ts';
export { stableHash, stableSample } from './learn/stable-sample.ts';
export {
  assertEmbedderMatches,
  embedderId,
  narrowingTypes,
  type SearchOptions,
  searchText,
  searchVector,
  type TextSearchHelperOptions,
  textFields,
  withTextField,
} from './search/search.ts';
export { countNoun, indefiniteArticle, withArticle } from './text/grammar.ts';
export {
  edgeTypeWords,
  parseRelationLabel,
  type Relation,
  type RelationLabelStyle,
  relationLabel,
} from './text/relation-label.ts';
export { trigramCount, trigramSimilarity, trigrams } from './text/trigram-similarity.ts';
export { type ConfirmationScores, structureConfirmation } from './plan/structure-confirmation.ts';
export { type AnchorSeedsOptions, anchorSeeds } from './plan/anchor-seeds.ts';
export { emptyPlan } from './plan/empty-plan.ts';
export { type PlanEndpoint, type PlanEndpointsOptions, planEndpoints } from './plan/plan-endpoints.ts';
export { queryNames, queryShare } from './plan/query-names.ts';
export {
  assertReadOnlyCypher,
  type ReadOnlyCypherOptions,
  readOnlyCypherProblem,
} from './cypher/read-only-cypher.ts';
export { type PathConstraintsOptions, pathConstraints } from './plan/path-constraints.ts';
export {
  importOptionalProvider,
  type ParseProviderSpecOptions,
  type ProviderSpec,
  parseProviderSpec,
  splitBaseUrlSpec,
} from './providers/provider-spec.ts';
export {
  NaiveBayes,
  type NaiveBayesModel,
  type NaiveBayesOptions,
  naiveBayesProbabilities,
} from './learn/naive-bayes.ts';
