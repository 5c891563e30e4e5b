export { TextSearchTraverser, type TextSearchTraverserOptions } from './text-search-traverser.ts';
export { VectorSearchTraverser, type VectorSearchTraverserOptions } from './vector-search-traverser.ts';
