import { narrowingTypes, searchText, searchVector, textFields } from '@weft/kit';
import type { IndexHit, RetrievalContext } from '@weft/spec';
import type { Pool } from './candidate-pool.ts';
import type { FieldTraverserOptions } from './options.ts';

/** The query-only searches, started by `doPrepare` while the planner runs. */
export interface GlobalSearches {
  readonly document: Promise<IndexHit[]>;
  readonly combined: Promise<IndexHit[]> | undefined;
  readonly dense: Promise<IndexHit[]> | undefined;
  /** The question's best matches over every node type; undefined when `describedK` is 0. */
  readonly described: Promise<IndexHit[]> | undefined;
}

/**
 * Starts the query-only searches: document, relation-aware document and dense rankings of the
 * target types, and the described matches over every type.
 */
export function globalSearches(
  query: string,
  limit: number,
  context: RetrievalContext,
  options: FieldTraverserOptions,
): GlobalSearches {
  const k = options.searchK ?? limit;
  const types = narrowingTypes(context.schema.targetTypes, context.schema);
  const common = {
    limit: k,
    ...(types ? { filter: { nodeTypes: types } } : {}),
    ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
  };
  const first = (lists: Promise<IndexHit[][]>) => lists.then((l) => l[0] ?? []);
  const hasCombined = textFields(context.text).includes('combined');
  const describedK = options.describedK ?? 50;
  const searches: GlobalSearches = {
    document: first(searchText(context.text, [query], common)),
    combined: hasCombined
      ? first(searchText(context.text, [query], { ...common, field: 'combined' }))
      : undefined,
    dense:
      context.vector && context.embeddingModel
        ? first(
            searchVector(context.vector, context.embeddingModel, [query], {
              ...common,
              limit: Math.max(k, options.denseK ?? 300),
            }),
          )
        : undefined,
    described: describedK > 0 ? describedSearch(query, describedK, hasCombined, context) : undefined,
  };
  // Rejections surface in doTraverse when awaited; a handle that is never used must not crash the process.
  for (const search of [searches.document, searches.combined, searches.dense, searches.described])
    search?.catch(() => {});
  return searches;
}

/**
 * The question's best matches over every node type, by own document and (where the index has it)
 * relation-aware document, each scored by its share of its field's best: a node with no text of
 * its own is described by what it is linked to.
 */
async function describedSearch(
  query: string,
  k: number,
  hasCombined: boolean,
  context: RetrievalContext,
): Promise<IndexHit[]> {
  const search = (field?: string) =>
    searchText(context.text, [query], {
      limit: k,
      ...(field ? { field } : {}),
      ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
    }).then((lists) => lists[0] ?? []);
  const lists = await Promise.all([search(), hasCombined ? search('combined') : []]);
  const share = new Map<string, IndexHit>();
  for (const list of lists) {
    const top = list[0]?.score ?? 0;
    if (top <= 0) continue;
    for (const hit of list) {
      const s = hit.score / top;
      if (s > (share.get(hit.id)?.score ?? 0)) share.set(hit.id, { ...hit, score: s });
    }
  }
  return [...share.values()].sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
}

/** Scores the pool's nodes on the text fields they were not found by (one id-filtered search each). */
export async function completeScores(
  query: string,
  pool: Pool,
  context: RetrievalContext,
  hasCombined: boolean,
): Promise<void> {
  const signal = context.abortSignal ? { abortSignal: context.abortSignal } : {};
  const missing = (scores: Map<string, number>) => pool.ids.filter((id) => !scores.has(id));
  const fill = async (scores: Map<string, number>, search: (ids: string[]) => Promise<IndexHit[][]>) => {
    const ids = missing(scores);
    if (ids.length === 0) return;
    const [hits = []] = await search(ids);
    for (const hit of hits) {
      scores.set(hit.id, hit.score);
      if (hit.type !== undefined && !pool.types.has(hit.id)) pool.types.set(hit.id, hit.type);
    }
  };
  await Promise.all([
    fill(pool.document, (ids) =>
      searchText(context.text, [query], { limit: ids.length, filter: { ids }, ...signal }),
    ),
    hasCombined
      ? fill(pool.combined, (ids) =>
          searchText(context.text, [query], {
            limit: ids.length,
            filter: { ids },
            field: 'combined',
            ...signal,
          }),
        )
      : undefined,
  ]);
}
