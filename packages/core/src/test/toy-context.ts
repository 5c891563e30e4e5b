import { edgeTypeWords } from '@weft/kit';
import type { ArtifactStore, RetrievalContext } from '@weft/spec';
import { MockEmbeddingModelV4 } from 'ai/test';
import { InMemoryGraphStore, type InMemorySkb } from './in-memory-graph-store.ts';
import { InMemoryTextIndex, tokenize } from './in-memory-text-index.ts';
import { InMemoryVectorIndex } from './in-memory-vector-index.ts';
import { toySkb } from './toy-skb.ts';

const dimensions = 64;

/** A deterministic bag-of-words embedding: each token adds 1 to a hashed dimension. */
export function hashedEmbedding(text: string): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const token of tokenize(text)) {
    let hash = 2166136261;
    for (let i = 0; i < token.length; i++) hash = Math.imul(hash ^ token.charCodeAt(i), 16777619);
    vector[(hash >>> 0) % dimensions]! += 1;
  }
  return vector;
}

/** An embedding model that embeds with `hashedEmbedding` (id `test:hashed-64`). */
export function hashedEmbeddingModel() {
  return new MockEmbeddingModelV4({
    provider: 'test',
    modelId: `hashed-${dimensions}`,
    maxEmbeddingsPerCall: 64,
    doEmbed: async ({ values }) => ({ embeddings: values.map((v) => hashedEmbedding(v)), warnings: [] }),
  });
}

/**
 * Relation text for the reference index: per node, `<edge type>: <neighbour names>` for each edge
 * type and direction (a plain re-implementation of what a store builds at ingest, uncapped).
 */
export function relationText(skb: InMemorySkb): (id: string) => string {
  const names = new Map(skb.nodes.map((node) => [node.id, node.name]));
  const groups = new Map<string, Map<string, string[]>>();
  const add = (id: string, label: string, neighbour: string) => {
    const byLabel = groups.get(id) ?? groups.set(id, new Map()).get(id)!;
    (byLabel.get(label) ?? byLabel.set(label, []).get(label)!).push(names.get(neighbour) ?? neighbour);
  };
  for (const edge of skb.edges) {
    const label = edgeTypeWords(edge.type);
    add(edge.src, label, edge.dst);
    add(edge.dst, label, edge.src);
  }
  return (id) =>
    [...(groups.get(id) ?? new Map<string, string[]>())]
      .map(([label, list]) => `${label}: ${list.join(', ')}`)
      .join(' ; ');
}

/**
 * A retrieval context over the toy SKB with the in-memory reference stores: graph, text index (with
 * relation fields), and
 * (unless `vectors: false`) hashed-embedding vectors with their query model. What unit tests of
 * stages and stacks run against.
 */
export function toyContext(
  options: { readonly vectors?: boolean; readonly artifacts?: ArtifactStore } = {},
): RetrievalContext {
  const skb = toySkb();
  const graph = new InMemoryGraphStore(skb);
  const text = new InMemoryTextIndex(skb.nodes);
  const vector = new InMemoryVectorIndex({
    records: skb.nodes.map((node) => ({
      id: node.id,
      type: node.type,
      vector: hashedEmbedding([node.name, ...(node.aliases ?? []), node.text].join(' ')),
    })),
    dimensions,
    embedderId: `test:hashed-${dimensions}`,
  });
  return {
    schema: skb.schema,
    graph,
    text,
    ...((options.vectors ?? true) ? { vector, embeddingModel: hashedEmbeddingModel() } : {}),
    ...(options.artifacts ? { artifacts: options.artifacts } : {}),
  };
}
