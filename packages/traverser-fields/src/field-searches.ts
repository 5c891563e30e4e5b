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
  const document = first(searchText(context.text, [query], common));
  const combined = hasCombined
    ? first(searchText(context.text, [query], { ...common, field: 'combined' }))
    : undefined;
  // Where the target types are every type, the described searches are these same searches, shorter.
  const longer = types === undefined && describedK <= k ? { document, combined } : undefined;
  const searches: GlobalSearches = {
    document,
    combined,
    dense:
      context.vector && context.embeddingModel
        ? first(
            searchVector(context.vector, context.embeddingModel, [query], {
              ...common,
              limit: Math.max(k, options.denseK ?? 300),
            }),
          )
        : undefined,
    described: describedK > 0 ? describedSearch(query, describedK, hasCombined, context, longer) : undefined,
  };
  // Rejections surface in doTraverse when awaited; a handle that is never used must not crash the process.
  for (const search of [searches.document, searches.combined, searches.dense, searches.described])
    search?.catch(() => {});
  return searches;
}

/**
 * The question's best matches over every node type, by own document and (where the index has it)
 * relation-aware document, each scored by its share of its field's best: a node with no text of
 * its own is described by what it is linked to. `longer`: the same searches (every type) for more
 * rows, whose first `k` are taken when they are the `k` best (no tie across the cut): only which
 * nodes are in matters, the list is ordered here.
 */
async function describedSearch(
  query: string,
  k: number,
  hasCombined: boolean,
  context: RetrievalContext,
  longer?: { readonly document: Promise<IndexHit[]>; readonly combined: Promise<IndexHit[]> | undefined },
): Promise<IndexHit[]> {
  const search = async (field?: string) => {
    const hits = await (field ? longer?.combined : longer?.document)?.catch(() => undefined);
    if (hits && (hits.length <= k || hits[k - 1]!.score > hits[k]!.score)) return hits.slice(0, k);
    return searchText(context.text, [query], {
      limit: k,
      ...(field ? { field } : {}),
      ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
    }).then((lists) => lists[0] ?? []);
  };
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

/**
 * The scores of some nodes by the query on one text field, from one id-filtered search: `hits` has
 * the nodes of `searched` whose text matches. A node's BM25 score does not depend on which other
 * nodes a filter lets through (the index's statistics are the whole field's), so one search serves
 * every step that needs some of these nodes.
 */
export interface FieldScores {
  readonly searched: ReadonlySet<string>;
  readonly hits: ReadonlyMap<string, IndexHit>;
}

/** Searches the query on `field` (absent: the document) restricted to `ids`, all of their matches. */
export async function scoreIds(
  query: string,
  ids: readonly string[],
  field: string | undefined,
  context: RetrievalContext,
): Promise<FieldScores> {
  const searched = new Set(ids);
  if (searched.size === 0) return { searched, hits: new Map() };
  const [hits = []] = await searchText(context.text, [query], {
    limit: searched.size,
    filter: { ids: [...searched] },
    ...(field ? { field } : {}),
    ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
  });
  return { searched, hits: new Map(hits.map((hit) => [hit.id, hit])) };
}

/**
 * Scores the pool's nodes on the text fields they were not found by (one id-filtered search each),
 * taking the scores `known` holds for the nodes it searched.
 */
export async function completeScores(
  query: string,
  pool: Pool,
  context: RetrievalContext,
  hasCombined: boolean,
  known: { readonly document?: Promise<FieldScores>; readonly combined?: Promise<FieldScores> } = {},
): Promise<void> {
  const missing = (scores: Map<string, number>) => pool.ids.filter((id) => !scores.has(id));
  const fill = async (
    scores: Map<string, number>,
    field: string | undefined,
    prefetched: Promise<FieldScores> | undefined,
  ) => {
    const ids = missing(scores);
    if (ids.length === 0) return;
    const from = await prefetched;
    const rest = from ? ids.filter((id) => !from.searched.has(id)) : ids;
    const searched = rest.length > 0 ? await scoreIds(query, rest, field, context) : undefined;
    for (const id of ids) {
      const hit = (from?.searched.has(id) ? from.hits : searched?.hits)?.get(id);
      if (!hit) continue;
      scores.set(hit.id, hit.score);
      if (hit.type !== undefined && !pool.types.has(hit.id)) pool.types.set(hit.id, hit.type);
    }
  };
  await Promise.all([
    fill(pool.document, undefined, known.document),
    hasCombined ? fill(pool.combined, 'combined', known.combined) : undefined,
  ]);
}
