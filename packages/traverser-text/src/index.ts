export { searchTypes } from './target-types.ts';
export { TextSearchTraverser, type TextSearchTraverserOptions } from './text-search-traverser.ts';
export { VectorSearchTraverser, type VectorSearchTraverserOptions } from './vector-search-traverser.ts';
