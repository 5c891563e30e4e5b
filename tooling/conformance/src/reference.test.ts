// The suites checked against the in-memory reference implementations of @weft/core/test.
import {
  InMemoryGraphStore,
  InMemoryTextIndex,
  InMemoryVectorIndex,
  ReferencePathTraverser,
  ScoreReranker,
} from '@weft/core/test';
import {
  runGraphStoreSuite,
  runRerankerSuite,
  runTextIndexSuite,
  runTraverserSuite,
  runVectorIndexSuite,
} from './index.ts';

runGraphStoreSuite({ name: 'InMemoryGraphStore', create: async (skb) => new InMemoryGraphStore(skb) });
runTextIndexSuite({ name: 'InMemoryTextIndex', create: async (nodes) => new InMemoryTextIndex(nodes) });
runVectorIndexSuite({
  name: 'InMemoryVectorIndex',
  create: async (options) => new InMemoryVectorIndex(options),
});
runTraverserSuite({ name: 'ReferencePathTraverser', create: async () => new ReferencePathTraverser() });
runRerankerSuite({ name: 'ScoreReranker(bm25)', create: async () => new ScoreReranker('bm25') });
