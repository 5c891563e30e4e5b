import { narrowingTypes, searchText, searchVector, toWeftError } from '@weft/kit';
import type { IndexHit, RetrievalContext } from '@weft/spec';
import { signalOf } from './signal-of.ts';

/** The searches of a traversal that need only the query: started early, awaited when scoring. */
export interface GlobalSearches {
  /** BM25 on the target types: the text fill. */
  readonly globalSearch: Promise<IndexHit[][]>;
  /** The wide dense search on the target types: the dense fill, and dense scores of the structural set. */
  readonly denseSearch: Promise<IndexHit[]>;
}

/**
 * Starts the global BM25 fill (`fillK + 8` hits) and the dense search (`denseK` hits) on the target
 * types. Neither is awaited here; a failure surfaces when the traversal awaits it.
 */
export function startGlobalSearches(
  query: string,
  context: RetrievalContext,
  sizes: { readonly fillK: number; readonly denseK: number },
): GlobalSearches {
  const targetTypes = narrowingTypes(context.schema.targetTypes, context.schema);
  const targetFilter = targetTypes ? { filter: { nodeTypes: targetTypes } } : {};
  const hasText = query.trim().length > 0;
  const globalSearch: Promise<IndexHit[][]> = hasText
    ? searchText(context.text, [query], { limit: sizes.fillK + 8, ...targetFilter, ...signalOf(context) })
    : Promise.resolve([[]]);
  const denseSearch: Promise<IndexHit[]> =
    context.vector && context.embeddingModel && hasText
      ? dense(context, query, { limit: sizes.denseK, ...targetFilter, ...signalOf(context) })
      : Promise.resolve([]);
  // Awaited later; until then a failure must not count as unhandled.
  globalSearch.catch(() => undefined);
  denseSearch.catch(() => undefined);
  return { globalSearch, denseSearch };
}

async function dense(
  context: RetrievalContext,
  query: string,
  options: Parameters<typeof searchVector>[3],
): Promise<IndexHit[]> {
  try {
    const [hits] = await searchVector(context.vector!, context.embeddingModel!, [query], options);
    return hits ?? [];
  } catch (error) {
    throw toWeftError(error, 'WEFT_STAGE_FAILED', 'dense search failed');
  }
}
