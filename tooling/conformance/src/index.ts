export { type GraphStoreSuiteOptions, runGraphStoreSuite } from './graph-store-suite.ts';
export { type RerankerSuiteOptions, runRerankerSuite } from './reranker-suite.ts';
export { hostileQueries, runTextIndexSuite, type TextIndexSuiteOptions } from './text-index-suite.ts';
export { runTraverserSuite, type TraverserSuiteOptions, toyNikonPlan } from './traverser-suite.ts';
export { runVectorIndexSuite, toyVectors, type VectorIndexSuiteOptions } from './vector-index-suite.ts';
