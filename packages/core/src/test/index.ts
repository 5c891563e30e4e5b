/**
 * Test helpers for Weft stages: recording mocks for every contract, the in-memory reference
 * implementations the conformance suites are checked against, and a toy SKB.
 * LLM and embedding mocks come from the AI SDK (`ai/test`) and are re-exported here.
 */
export { MockEmbeddingModelV4, MockLanguageModelV4 } from 'ai/test';
export { InMemoryGraphStore, type InMemorySkb, trigramSimilarity } from './in-memory-graph-store.ts';
export {
  InMemoryTextIndex,
  type InMemoryTextIndexOptions,
  type TextAnalyzer,
  tokenize,
} from './in-memory-text-index.ts';
export { InMemoryVectorIndex, type VectorRecord } from './in-memory-vector-index.ts';
export { type MemoryArtifactStore, memoryArtifacts } from './memory-artifacts.ts';
export { type ToyTrainingSet, toyTrainingSet } from './toy-training-set.ts';
export { MockGraphStore, MockTextIndex, MockVectorIndex } from './mock-stores.ts';
export {
  type MockBehaviour,
  MockCritic,
  MockExpander,
  MockPlanner,
  MockReranker,
  MockTraverser,
} from './mocks.ts';
export { ReferencePathTraverser } from './reference-path-traverser.ts';
export { ScoreReranker } from './score-reranker.ts';
export { hashedEmbedding, hashedEmbeddingModel, relationText, toyContext } from './toy-context.ts';
export { toySkb } from './toy-skb.ts';
export { textResult } from './llm-fixtures.ts';
