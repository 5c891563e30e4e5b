export { ListwiseLlmReranker } from './listwise-llm-reranker.ts';
export type { LlmRerankerOptions } from './llm-reranker-options.ts';
export { PairwiseLlmReranker } from './pairwise-llm-reranker.ts';
export { PointwiseLlmReranker } from './pointwise-llm-reranker.ts';
