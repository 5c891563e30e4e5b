export { type JudgingSheetOptions, judgingSheet } from './judging-sheet.ts';
export {
  type CandidateJudgment,
  type HybridAnnotation,
  type QuerySetReaders,
  querySetReaders,
  readAnnotations,
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
export { markdownTable, splitCounts } from './source-tables.ts';
