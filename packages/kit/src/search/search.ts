import type { EmbeddingModelV4 } from '@ai-sdk/provider';
import type { IndexFilter, IndexHit, SkbSchema, TextIndexV1, TextIndexV2, VectorIndexV1 } from '@weft/spec';
import { embedMany } from 'ai';
import { WeftError } from '../errors/weft-error.ts';

export interface SearchOptions {
  readonly limit: number;
  readonly filter?: IndexFilter;
  readonly abortSignal?: AbortSignal;
}

/**
 * The node types a search should be filtered to, or undefined when the list names every type of
 * the schema (or none): a filter that keeps everything only slows the index down.
 */
export function narrowingTypes(
  types: readonly string[] | undefined,
  schema: Pick<SkbSchema, 'nodeTypes'>,
): readonly string[] | undefined {
  if (!types || types.length === 0) return undefined;
  const listed = new Set(types);
  return schema.nodeTypes.every((type) => listed.has(type.name)) ? undefined : types;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  const step = Math.max(1, size);
  for (let i = 0; i < items.length; i += step) out.push(items.slice(i, i + step));
  return out;
}

export interface TextSearchHelperOptions extends SearchOptions {
  /** A field of a `TextIndexV2`; absent = the index's own document field. */
  readonly field?: string;
}

/** The fields a text index can rank by: a version 1 index has one, the node's own document. */
export function textFields(index: TextIndexV1 | TextIndexV2): readonly string[] {
  return index.specificationVersion === 'v2' ? index.fields.map((f) => f.name) : ['document'];
}

/**
 * BM25 search for many queries, split into batches the index accepts. `field` names a field of a
 * version 2 index; asking a version 1 index for anything but its document is an error, never a
 * silent search of the wrong field.
 */
export async function searchText(
  index: TextIndexV1 | TextIndexV2,
  queries: readonly string[],
  options: TextSearchHelperOptions,
): Promise<IndexHit[][]> {
  const { field, ...rest } = options;
  if (field !== undefined && !textFields(index).includes(field)) {
    throw new WeftError({
      code: 'WEFT_UNSUPPORTED',
      message: `the text index (${index.provider}) has no field "${field}" (fields: ${textFields(index).join(', ')}); rebuild the store with weft ingest`,
    });
  }
  const results: IndexHit[][] = [];
  for (const batch of chunks(queries, index.maxQueriesPerCall)) {
    results.push(
      ...(await (index.specificationVersion === 'v2'
        ? index.doSearch({ queries: batch, ...rest, ...(field ? { field } : {}) })
        : index.doSearch({ queries: batch, ...rest }))),
    );
  }
  return results;
}

/** The id under which vectors made by `model` are recorded, e.g. `'local:tfidf-lsa-256'`. */
export function embedderId(model: EmbeddingModelV4): string {
  return `${model.provider}:${model.modelId}`;
}

/** Refuses to search vectors built by one embedder with queries embedded by another. */
export function assertEmbedderMatches(index: VectorIndexV1, model: EmbeddingModelV4): void {
  const id = embedderId(model);
  if (index.embedderId !== id) {
    throw new WeftError({
      code: 'WEFT_EMBEDDER_MISMATCH',
      message: `the vector index was built with embedder "${index.embedderId}" but queries use "${id}"; rebuild the store with --embedder ${id} or query with the store's embedder`,
      details: { index: index.embedderId, query: id },
    });
  }
}

/** Embeds `texts` with the AI SDK and searches the vector index with them. */
export async function searchVector(
  index: VectorIndexV1,
  model: EmbeddingModelV4,
  texts: readonly string[],
  options: SearchOptions,
): Promise<IndexHit[][]> {
  assertEmbedderMatches(index, model);
  if (texts.length === 0) return [];
  const { embeddings } = await embedMany({
    model,
    values: [...texts],
    ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
  });
  const results: IndexHit[][] = [];
  for (const batch of chunks(embeddings, index.maxQueriesPerCall)) {
    results.push(...(await index.doSearch({ vectors: batch, ...options })));
  }
  return results;
}

const fieldViews = new WeakMap<TextIndexV2, Map<string, TextIndexV2>>();

/**
 * The index searching `field` wherever a caller names no field — e.g. `combined`, the relation-aware
 * document — or the index itself when it has no such field (a version 1 index, or a store built
 * without relation text): a stage asks for the field it ranks best by and still runs on any store.
 * The same index and field give the same view, so a handle made for one (`doPrepare`) matches the
 * other. Closing a view leaves the index open: the view does not own it.
 */
export function searchingField(index: TextIndexV1 | TextIndexV2, field: string): TextIndexV1 | TextIndexV2 {
  if (
    index.specificationVersion !== 'v2' ||
    index.defaultField === field ||
    !textFields(index).includes(field)
  )
    return index;
  const views = fieldViews.get(index) ?? fieldViews.set(index, new Map()).get(index)!;
  const known = views.get(field);
  if (known) return known;
  const view: TextIndexV2 = {
    specificationVersion: 'v2',
    provider: index.provider,
    maxQueriesPerCall: index.maxQueriesPerCall,
    fields: index.fields,
    defaultField: field,
    doSearch: (options) => index.doSearch({ ...options, field: options.field ?? field }),
    ...(index.doTermStatistics
      ? {
          doTermStatistics: (options) =>
            index.doTermStatistics!({ ...options, field: options.field ?? field }),
        }
      : {}),
    close: () => Promise.resolve(),
  };
  views.set(field, view);
  return view;
}

/** The context with its text index searching `field` where the index has it (`searchingField`). */
export function withTextField<C extends { readonly text: TextIndexV1 | TextIndexV2 }>(
  context: C,
  field: string | undefined,
): C {
  if (field === undefined) return context;
  const text = searchingField(context.text, field);
  return text === context.text ? context : { ...context, text };
}
