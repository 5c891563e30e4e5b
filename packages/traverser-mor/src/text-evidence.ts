import { searchText } from '@weft/kit';
import type { Plan, RetrievalContext } from '@weft/spec';
import type { GlobalSearches } from './global-searches.ts';
import { signalOf } from './signal-of.ts';

/** Text and dense scores of a traversal, raw (BM25, cosine), by node id. */
export interface TextEvidence {
  /** BM25 of the query inside the structural set. */
  readonly inSet: ReadonlyMap<string, number>;
  /** BM25 of the plan's restriction inside the structural set. */
  readonly inSetRestriction: ReadonlyMap<string, number>;
  /** The text fill: the global BM25 top `fillK` on the target types, anchors left out. */
  readonly globalText: ReadonlyMap<string, number>;
  /** Dense scores of the structural nodes the wide dense search reached. */
  readonly denseSet: ReadonlyMap<string, number>;
  /** The dense fill: the dense top `fillK`, anchors left out. */
  readonly globalDense: ReadonlyMap<string, number>;
  /** The best BM25 globally or in the set: structural and fill candidates are normalised by it alike. */
  readonly maxGlobal: number;
}

/**
 * Text scores inside the structural set (query and restriction, one batched search), joined with
 * the global searches. The dense search is wide enough to score most of the structural set as well:
 * one filtered to the set's ids costs LanceDB a scan (≈ 4× a global one). `exclude` (the anchors)
 * never enters the fill.
 */
export async function textEvidence(
  plan: Plan,
  query: string,
  context: RetrievalContext,
  ids: readonly string[],
  searches: GlobalSearches,
  exclude: ReadonlySet<string>,
  fillK: number,
): Promise<TextEvidence> {
  const restriction = plan.restriction && plan.restriction !== query ? plan.restriction : query;
  const [inSetHits, globalHits, denseGlobal] = await Promise.all([
    ids.length > 0 && query.trim().length > 0
      ? searchText(context.text, [query, restriction], {
          limit: ids.length,
          filter: { ids },
          ...signalOf(context),
        })
      : Promise.resolve([[], []]),
    searches.globalSearch,
    searches.denseSearch,
  ]);
  const inSet = new Map((inSetHits[0] ?? []).map((h) => [h.id, h.score]));
  const inSetRestriction = new Map((inSetHits[1] ?? []).map((h) => [h.id, h.score]));
  const globalText = new Map(
    (globalHits[0] ?? [])
      .filter((h) => !exclude.has(h.id))
      .slice(0, fillK)
      .map((h) => [h.id, h.score]),
  );
  const denseAll = new Map(denseGlobal.filter((h) => !exclude.has(h.id)).map((h) => [h.id, h.score]));
  const denseSet = new Map(ids.filter((id) => denseAll.has(id)).map((id) => [id, denseAll.get(id)!]));
  const globalDense = new Map(
    denseGlobal
      .filter((h) => !exclude.has(h.id))
      .slice(0, fillK)
      .map((h) => [h.id, h.score]),
  );
  return {
    inSet,
    inSetRestriction,
    globalText,
    denseSet,
    globalDense,
    maxGlobal: Math.max(0, ...globalText.values(), ...inSet.values()),
  };
}
