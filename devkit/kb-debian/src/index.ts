export { type AptListFiles, aptListsHelp, locateAptLists, readAptList } from './apt-lists.ts';
export {
  type BuildDebianBundleOptions,
  buildDebianBundle,
  type DebianBundleReport,
} from './build-debian-bundle.ts';
export { type DebianGraph, extractDebianGraph, nodeId, translationIndex } from './debian-graph.ts';
export { type DebianEdgeType, type DebianNodeType, debianSchema } from './debian-schema.ts';
export { type GraphStatistics, graphStatistics } from './graph-statistics.ts';
export {
  annotatedSetNames,
  queriesDirectory,
  querySetNames,
  readAnnotations,
  readQuerySet,
} from './query-sets.ts';
export {
  type CandidateJudgment,
  type HybridAnnotation,
  candidatesOf,
  EdgeIndex,
  type RelationalConstraint,
  type RelationalPart,
  candidatesOfPaths,
  followPath,
  type RelationPath,
  relationPaths,
} from '@weft-dev/judged-queries';
export { debtags, longDescription, maintainerName, parseStanzas, relationAlternatives } from './stanzas.ts';
