import type { EmbeddingModelV4 } from '@ai-sdk/provider';
import { searchVector, WeftError } from '@weft/kit';
import type { Candidate, TraverseOptions, TraverserV1, VectorIndexV1 } from '@weft/spec';
import { hitCandidates, searchTypes } from './target-types.ts';

export interface VectorSearchTraverserOptions {
  /** Shown in traces (default `'vector-search'`). */
  readonly name?: string;
  /** The index to search (default: `context.vector`). */
  readonly index?: VectorIndexV1;
  /** The model that embeds queries (default: `context.embeddingModel`); must be the index's embedder. */
  readonly embeddingModel?: EmbeddingModelV4;
  /**
   * Look up each candidate's node type in the graph when several types were searched (default false:
   * hits are of the searched types anyway, and a lookup per query costs a graph round trip).
   */
  readonly resolveTypes?: boolean;
}

/**
 * Dense search over the nodes of the plan's target types (or the schema's): the query is embedded with
 * the store's embedder and ranked by cosine similarity. One `'vector'` hop per candidate.
 */
export class VectorSearchTraverser implements TraverserV1 {
  readonly specificationVersion = 'v1';
  readonly name: string;
  private readonly options: VectorSearchTraverserOptions;

  constructor(options: VectorSearchTraverserOptions = {}) {
    this.name = options.name ?? 'vector-search';
    this.options = options;
  }

  async doTraverse({ query, plan, limit, context }: TraverseOptions): Promise<Candidate[]> {
    const index = this.options.index ?? context.vector;
    const model = this.options.embeddingModel ?? context.embeddingModel;
    if (!index || !model) {
      throw new WeftError({
        code: 'WEFT_UNSUPPORTED',
        message: `${this.name} needs a vector index and an embedding model; the store has ${index ? 'no embedding model' : 'no vector index'}`,
      });
    }
    // Embedding models reject empty input; an empty query has no meaning to match anyway.
    if (query.trim() === '') return [];
    const types = searchTypes(plan, context.schema);
    const [hits = []] = await searchVector(index, model, [query], {
      limit,
      ...(types ? { filter: { nodeTypes: types } } : {}),
      ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
    });
    return hitCandidates(hits, {
      types,
      resolveTypes: this.options.resolveTypes === true,
      context,
      via: 'vector',
      scoreName: 'dense',
      source: this.name,
    });
  }
}
