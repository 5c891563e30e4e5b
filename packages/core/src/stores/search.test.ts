// The kit's search helpers, tested here beside the mock indexes of @weft/core/test (the kit cannot
// depend on core, which depends on it).
import { describe, expect, it } from 'vitest';
import { MockEmbeddingModelV4, MockTextIndex, MockVectorIndex } from '../test/index.ts';
import { narrowingTypes, searchText, searchVector } from '@weft/kit';

describe('searchText', () => {
  it('splits query batches by maxQueriesPerCall and keeps order', async () => {
    const index = new MockTextIndex({
      maxQueriesPerCall: 2,
      doSearch: (options) => options.queries.map((q) => [{ id: q, score: 1 }]),
    });
    const hits = await searchText(index, ['a', 'b', 'c'], { limit: 5 });
    expect(hits.map((h) => h[0]!.id)).toEqual(['a', 'b', 'c']);
    expect(index.doSearchCalls.map((c) => c.queries)).toEqual([['a', 'b'], ['c']]);
  });
});

describe('searchVector', () => {
  const model = new MockEmbeddingModelV4({
    provider: 'local',
    modelId: 'toy-2',
    maxEmbeddingsPerCall: 16,
    doEmbed: async ({ values }) => ({ embeddings: values.map((v) => [v.length, 1]), warnings: [] }),
  });

  it('embeds through the AI SDK and searches with the vectors', async () => {
    const index = new MockVectorIndex({
      dimensions: 2,
      embedderId: 'local:toy-2',
      doSearch: (options) => options.vectors.map((v) => [{ id: `len${v[0]}`, score: 1 }]),
    });
    const hits = await searchVector(index, model, ['abc', 'de'], {
      limit: 3,
      filter: { nodeTypes: ['product'] },
    });
    expect(hits.map((h) => h[0]!.id)).toEqual(['len3', 'len2']);
    expect(model.doEmbedCalls).toHaveLength(1);
    expect(index.doSearchCalls[0]!.filter).toEqual({ nodeTypes: ['product'] });
  });

  it('refuses a query embedder that differs from the index embedder', async () => {
    const index = new MockVectorIndex({
      dimensions: 2,
      embedderId: 'openai:text-embedding-3-small',
      doSearch: [[]],
    });
    await expect(searchVector(index, model, ['x'], { limit: 1 })).rejects.toMatchObject({
      code: 'WEFT_EMBEDDER_MISMATCH',
    });
  });
});

describe('narrowingTypes', () => {
  const schema = { nodeTypes: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] };
  it('keeps a list that leaves some type out, drops one that names them all or none', () => {
    expect(narrowingTypes(['a', 'c'], schema)).toEqual(['a', 'c']);
    expect(narrowingTypes(['c', 'b', 'a'], schema)).toBeUndefined();
    expect(narrowingTypes([], schema)).toBeUndefined();
    expect(narrowingTypes(undefined, schema)).toBeUndefined();
  });
});
