import { runRerankerSuite } from '@weft/conformance';
import { MockLanguageModelV4, textResult } from '@weft/core/test';
import { ListwiseLlmReranker } from './listwise-llm-reranker.ts';
import { PairwiseLlmReranker } from './pairwise-llm-reranker.ts';
import { PointwiseLlmReranker } from './pointwise-llm-reranker.ts';

const withModel =
  (answer: string) =>
  (context: Parameters<NonNullable<Parameters<typeof runRerankerSuite>[0]['prepareContext']>>[0]) => ({
    ...context,
    languageModel: new MockLanguageModelV4({ doGenerate: textResult(answer) }),
  });

runRerankerSuite({
  name: 'PointwiseLlmReranker (mock model)',
  prepareContext: withModel('{"score": 7}'),
  create: async () => new PointwiseLlmReranker({ maxCalls: 4 }),
});
runRerankerSuite({
  name: 'ListwiseLlmReranker (mock model)',
  prepareContext: withModel('{"ranking": [2, 1, 4, 3]}'),
  create: async () => new ListwiseLlmReranker(),
});
runRerankerSuite({
  name: 'PairwiseLlmReranker (mock model)',
  prepareContext: withModel('{"better": "B"}'),
  create: async () => new PairwiseLlmReranker({ maxCalls: 5 }),
});
runRerankerSuite({ name: 'ListwiseLlmReranker (no model)', create: async () => new ListwiseLlmReranker() });
