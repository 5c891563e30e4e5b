import { embedderId } from '@weft/kit';
import {
  hashedEmbedding,
  hashedEmbeddingModel,
  InMemoryGraphStore,
  type InMemorySkb,
  InMemoryTextIndex,
  InMemoryVectorIndex,
} from '@weft/core/test';
import type { RetrievalContext } from '@weft/spec';

export interface StoreContextOptions {
  /** Add a vector index of hashed bag-of-words embeddings and its query model (default false). */
  readonly vectors?: boolean;
}

/** A retrieval context over `skb` with the in-memory reference stores of `@weft/core/test`. */
export function storeContext(skb: InMemorySkb, options: StoreContextOptions = {}): RetrievalContext {
  const context: RetrievalContext = {
    schema: skb.schema,
    graph: new InMemoryGraphStore(skb),
    text: new InMemoryTextIndex(skb.nodes),
  };
  if (!options.vectors) return context;
  const model = hashedEmbeddingModel();
  const records = skb.nodes.map((node) => ({
    id: node.id,
    type: node.type,
    vector: hashedEmbedding([node.name, ...(node.aliases ?? []), node.text].join(' ')),
  }));
  const dimensions = records[0]?.vector.length ?? 64;
  return {
    ...context,
    vector: new InMemoryVectorIndex({
      records,
      dimensions,
      embedderId: embedderId(model),
    }),
    embeddingModel: model,
  };
}
