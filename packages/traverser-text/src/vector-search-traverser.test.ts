import { runTraverserSuite } from '@weft/conformance';
import { emptyPlan } from '@weft/kit';
import {
  InMemoryGraphStore,
  MockEmbeddingModelV4,
  tokenize,
  InMemoryTextIndex,
  InMemoryVectorIndex,
  toySkb,
} from '@weft/core/test';
import type { RetrievalContext } from '@weft/spec';
import { describe, expect, it } from 'vitest';
import { VectorSearchTraverser } from './vector-search-traverser.ts';

/** A deterministic bag-of-words embedder for tests: each token adds 1 to a hashed dimension. */
function hashedEmbedding(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const token of tokenize(text)) {
    let hash = 2166136261;
    for (let i = 0; i < token.length; i++) hash = Math.imul(hash ^ token.charCodeAt(i), 16777619);
    vector[(hash >>> 0) % dimensions]! += 1;
  }
  return vector;
}

function hashedEmbeddingModel(dimensions: number) {
  return new MockEmbeddingModelV4({
    provider: 'test',
    modelId: `hashed-${dimensions}`,
    maxEmbeddingsPerCall: 64,
    doEmbed: async ({ values }) => ({
      embeddings: values.map((v) => hashedEmbedding(v, dimensions)),
      warnings: [],
    }),
  });
}

const dimensions = 64;
const skb = toySkb();
const records = skb.nodes.map((node) => ({
  id: node.id,
  type: node.type,
  vector: hashedEmbedding([node.name, ...(node.aliases ?? []), node.text].join(' '), dimensions),
}));
const index = () => new InMemoryVectorIndex({ records, dimensions, embedderId: `test:hashed-${dimensions}` });

// The suite's contexts carry a vector index and its model: the traverser must search the store it is
// asked about, not one it was built with.
runTraverserSuite({
  name: 'VectorSearchTraverser',
  searchOnly: true,
  vectors: true,
  create: async () => new VectorSearchTraverser(),
});

describe('VectorSearchTraverser', () => {
  const context: RetrievalContext = {
    schema: skb.schema,
    graph: new InMemoryGraphStore(skb),
    text: new InMemoryTextIndex(skb.nodes),
    vector: index(),
    embeddingModel: hashedEmbeddingModel(dimensions),
  };

  it('ranks target-type nodes by cosine similarity to the embedded query, one vector hop each', async () => {
    const query = 'motion triggered trail camera for wildlife';
    const candidates = await new VectorSearchTraverser().doTraverse({
      query,
      plan: emptyPlan(query, skb.schema),
      limit: 5,
      context,
    });
    const [expected] = await index().doSearch({
      vectors: [hashedEmbedding(query, dimensions)],
      limit: 5,
      filter: { nodeTypes: ['product'] },
    });
    expect(candidates.map((c) => c.id)).toEqual(expected!.map((h) => h.id));
    expect(candidates[0]!.id).toBe('p:trailcam');
    expect(candidates[0]!.trajectories).toEqual([
      { hops: [{ node: 'p:trailcam', nodeType: 'product', via: 'vector' }] },
    ]);
    expect(candidates[0]!.scores.dense).toBeCloseTo(candidates[0]!.score, 12);
  });

  it('refuses a store without vectors and a query embedder that differs from the index', async () => {
    const query = 'camera';
    const plan = emptyPlan(query, skb.schema);
    const bare: RetrievalContext = { schema: skb.schema, graph: context.graph, text: context.text };
    await expect(
      new VectorSearchTraverser().doTraverse({ query, plan, limit: 5, context: bare }),
    ).rejects.toMatchObject({
      code: 'WEFT_UNSUPPORTED',
    });
    await expect(
      new VectorSearchTraverser({ embeddingModel: hashedEmbeddingModel(32) }).doTraverse({
        query,
        plan,
        limit: 5,
        context,
      }),
    ).rejects.toMatchObject({ code: 'WEFT_EMBEDDER_MISMATCH' });
  });

  it('returns nothing for an empty query without calling the embedder', async () => {
    const model = hashedEmbeddingModel(dimensions);
    const candidates = await new VectorSearchTraverser({ embeddingModel: model }).doTraverse({
      query: '  ',
      plan: emptyPlan('  ', skb.schema),
      limit: 5,
      context,
    });
    expect(candidates).toEqual([]);
    expect(model.doEmbedCalls).toHaveLength(0);
  });
});
