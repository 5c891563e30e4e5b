import { searchText } from '@weft/kit';
import type { Anchor, RetrievalContext, TermStatistics } from '@weft/spec';
import { type QuerySpan, querySpans, singularForms } from '@weft/grounding';

/** A span of the query that names one or more graph nodes. */
export interface Mention extends QuerySpan {
  /**
   * In [0, 1]: how surely the span names something specific rather than using a common word. From
   * the rarest of its words in the node documents (inverse document frequency), raised for several
   * words or quotes, lowered when many nodes share the name.
   */
  readonly specificity: number;
  /** The rarest word's inverse document frequency scaled to [0, 1] (0.5 without term statistics). */
  readonly rarity: number;
  /** How many nodes bear the name (before `maxNodesPerSpan` cut the list). */
  readonly namesakes: number;
  /** A word of it starts with a capital letter and is not the query's first word. */
  readonly capitalised: boolean;
  /** Inside a longer mention that also names a node ("hockey" in "ice hockey"). */
  readonly shadowed: boolean;
  /** The nodes it names, best match first; `score` is the store's name-match score in [0, 1]. */
  readonly nodes: readonly {
    readonly id: string;
    readonly type: string;
    readonly name: string;
    readonly score: number;
  }[];
}

export interface LinkMentionsOptions {
  /** Longest span tried, in words (default 4). */
  readonly maxSpanWords?: number;
  /** Most nodes kept per span (default 20). */
  readonly maxNodesPerSpan?: number;
  /** Namesakes beyond which a name counts as ambiguous and its specificity is halved (default 5). */
  readonly ambiguousAbove?: number;
  /**
   * Rank the namesakes of a mention by how well their documents match the whole query (one BM25
   * search over all of them; default true): `militia (civilians trained as soldiers…)` picks that
   * militia. A node's score becomes its name-match score × (0.5 + 0.5 × its share of the best BM25).
   */
  readonly disambiguate?: boolean;
}

/** Inverse document frequency as BM25 uses it, scaled to [0, 1] by the largest possible value. */
function scaledIdf(statistics: TermStatistics | undefined): number | undefined {
  if (!statistics || statistics.terms.length === 0 || statistics.documents === 0) return undefined;
  const n = statistics.documents;
  const idf = (df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));
  return Math.max(...statistics.terms.map((t) => idf(t.documentFrequency))) / idf(0);
}

/**
 * Finds the spans of a query that name graph nodes: exact, alias and case-insensitive name matches
 * (one batched look-up, plural last words also tried as singular), each with a specificity. Without
 * term statistics from the text index, specificity falls back to 0.5 for one word, 0.75 for more.
 */
export async function linkMentions(
  query: string,
  context: RetrievalContext,
  options: LinkMentionsOptions = {},
): Promise<Mention[]> {
  const spans = querySpans(query, options.maxSpanWords ?? 4);
  if (spans.length === 0) return [];
  const signal = context.abortSignal ? { abortSignal: context.abortSignal } : {};
  const names: string[] = [];
  const owner: number[] = [];
  spans.forEach((span, i) => {
    for (const name of [span.text, ...singularForms(span.text)]) {
      names.push(name);
      owner.push(i);
    }
  });
  const matches = await context.graph.doLookup(names, {
    fuzzy: false,
    limit: options.maxNodesPerSpan ?? 20,
    ...signal,
  });
  const bySpan = new Map<number, Map<string, Mention['nodes'][number]>>();
  matches.forEach((list, n) => {
    if (list.length === 0) return;
    const span = owner[n]!;
    const found = bySpan.get(span) ?? bySpan.set(span, new Map()).get(span)!;
    for (const match of list) {
      const previous = found.get(match.id);
      if (!previous || previous.score < match.score) {
        found.set(match.id, { id: match.id, type: match.type, name: match.name, score: match.score });
      }
    }
  });
  const linked = [...bySpan.keys()].sort((a, b) => a - b);
  if (linked.length === 0) return [];
  const text = context.text;
  const statistics =
    text.specificationVersion === 'v2' && text.doTermStatistics
      ? await text.doTermStatistics({ texts: linked.map((i) => spans[i]!.text) })
      : undefined;
  const ambiguousAbove = options.ambiguousAbove ?? 5;
  const context_ =
    options.disambiguate === false
      ? undefined
      : await contextScores(
          query,
          linked.map((i) => bySpan.get(i)!),
          context,
        );
  const firstWord = query.search(/[\p{L}\p{N}]/u);
  const mentions = linked.map((spanIndex, k) => {
    const span = spans[spanIndex]!;
    const found = [...bySpan.get(spanIndex)!.values()];
    const best = Math.max(0, ...found.map((n) => context_?.get(n.id) ?? 0));
    const nodes = found
      .map((n) =>
        found.length > 1 && best > 0
          ? { ...n, score: n.score * (0.5 + (0.5 * (context_?.get(n.id) ?? 0)) / best) }
          : n,
      )
      .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id))
      .slice(0, options.maxNodesPerSpan ?? 20);
    const rarity = scaledIdf(statistics?.[k]) ?? 0.5;
    const several = span.words > 1 || span.quoted ? 1.5 : 1;
    const namesakes = found.length > ambiguousAbove ? 0.5 : 1;
    return {
      ...span,
      nodes,
      rarity,
      namesakes: found.length,
      capitalised: /(^|[^\p{L}\p{N}])\p{Lu}/u.test(span.text) && span.start > firstWord,
      shadowed: false,
      specificity: Math.min(1, rarity * several) * namesakes,
    };
  });
  return mentions.map((m) => ({
    ...m,
    shadowed: mentions.some(
      (o) => o !== m && o.start <= m.start && o.end >= m.end && o.end - o.start > m.end - m.start,
    ),
  }));
}

/** BM25 of the whole query against the documents of every namesake of an ambiguous mention. */
async function contextScores(
  query: string,
  found: readonly ReadonlyMap<string, unknown>[],
  context: RetrievalContext,
): Promise<Map<string, number> | undefined> {
  const ids = [...new Set(found.filter((m) => m.size > 1).flatMap((m) => [...m.keys()]))];
  if (ids.length === 0) return undefined;
  const [hits = []] = await searchText(context.text, [query], {
    limit: ids.length,
    filter: { ids },
    ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
  });
  return new Map(hits.map((h) => [h.id, h.score]));
}

/** Mentions as the plan's anchors: the specificity is the anchor's confidence. */
export function mentionAnchors(mentions: readonly Mention[]): Anchor[] {
  return mentions.map((mention) => ({
    mention: mention.text,
    confidence: mention.specificity,
    candidates: mention.nodes.map((node) => ({
      id: node.id,
      type: node.type,
      score: node.score,
      named: true,
    })),
  }));
}
