import { searchText } from '@weft/kit';
import type { GraphNeighbor, NameMatch, RetrievalContext } from '@weft/spec';
import { metapathKey } from './metapath.ts';
import { queryWords, quotedPhrases, singularForms, stopwords } from './query-text.ts';

/** A stretch of the query that may name a graph node. */
export interface Span {
  readonly text: string;
  readonly start: number;
  readonly end: number;
  readonly words: number;
  readonly quoted: boolean;
  /** A word of the span starts with a capital and is not the query's first word. */
  readonly capitalised: boolean;
  /** Lower-cased tokens of the span. */
  readonly tokens: readonly string[];
}

/** A node a span may name, with how well the name and the query's context fit it. */
export interface LinkedNode {
  readonly span: number;
  readonly id: string;
  readonly type: string;
  readonly name: string;
  /** The store's name-match score in [0, 1]. */
  readonly match: number;
  /** BM25 of the whole query against this node's document, relative to the span's best, in [0, 1]. */
  readonly context: number;
  readonly contextRank: number;
  /** How many nodes the span matched. */
  readonly ambiguity: number;
}

export interface Linking {
  readonly spans: readonly Span[];
  readonly nodes: readonly LinkedNode[];
  /** Per linked node id: neighbours grouped by one-hop metapath key. */
  readonly firstHops: ReadonlyMap<string, ReadonlyMap<string, readonly GraphNeighbor[]>>;
  /** Spans contained in a longer span that also linked. */
  readonly shadowed: ReadonlySet<number>;
}

export interface LinkingOptions {
  readonly maxSpanWords?: number;
  readonly maxSpans?: number;
  /** Nodes per span kept after context ranking. */
  readonly nodesPerSpan?: number;
  /** At most this many linked nodes are expanded. */
  readonly maxExpanded?: number;
  readonly neighborsPerSeed?: number;
}

/** Candidate spans: quoted phrases and n-grams that neither start nor end with a function word. */
export function candidateSpans(query: string, maxWords: number, maxSpans: number): Span[] {
  const words = queryWords(query);
  const spans: Span[] = [];
  const seen = new Set<string>();
  const add = (start: number, end: number, quoted: boolean) => {
    const text = query.slice(start, end).trim();
    const key = `${start}:${end}`;
    if (text.length === 0 || seen.has(key)) return;
    seen.add(key);
    const inside = words.filter((w) => w.start >= start && w.end <= end);
    spans.push({
      text,
      start,
      end,
      words: Math.max(1, inside.length),
      quoted,
      capitalised: inside.some((w) => w.start > (words[0]?.start ?? 0) && /^\p{Lu}/u.test(w.text)),
      tokens: inside.map((w) => w.lower),
    });
  };
  for (const phrase of quotedPhrases(query)) add(phrase.start, phrase.end, true);
  for (let n = Math.min(maxWords, words.length); n >= 1; n--) {
    for (let i = 0; i + n <= words.length; i++) {
      const first = words[i]!;
      const last = words[i + n - 1]!;
      if (stopwords.has(first.lower) || stopwords.has(last.lower)) continue;
      // A span never crosses sentence punctuation.
      if (/[,;:?!.()]/.test(query.slice(first.end, last.start))) continue;
      add(first.start, last.end, false);
    }
  }
  return spans.slice(0, maxSpans);
}

/**
 * Links spans to nodes (one batched look-up), ranks each span's nodes by how well their documents
 * fit the whole query (one text search restricted to the linked ids) and expands the best linked
 * nodes one hop over every edge type (one batched neighbour call).
 */
export async function linkQuery(
  query: string,
  context: RetrievalContext,
  options: LinkingOptions = {},
): Promise<Linking> {
  const spans = candidateSpans(query, options.maxSpanWords ?? 4, options.maxSpans ?? 80);
  if (spans.length === 0) return { spans, nodes: [], firstHops: new Map(), shadowed: new Set() };
  const signal = context.abortSignal ? { abortSignal: context.abortSignal } : {};

  // Look-up names: each span as written, plus singular forms of its last word.
  const names: string[] = [];
  const owner: number[] = [];
  spans.forEach((span, i) => {
    names.push(span.text);
    owner.push(i);
    const lastWord = span.text.match(/[\p{L}\p{N}]+$/u)?.[0];
    if (lastWord) {
      for (const singular of singularForms(lastWord)) {
        names.push(span.text.slice(0, span.text.length - lastWord.length) + singular);
        owner.push(i);
      }
    }
  });
  const matches = await context.graph.doLookup(names, { fuzzy: false, limit: 12, ...signal });
  const perSpan = new Map<number, Map<string, NameMatch>>();
  matches.forEach((list, n) => {
    const span = owner[n]!;
    const map = perSpan.get(span) ?? perSpan.set(span, new Map()).get(span)!;
    for (const match of list) {
      const previous = map.get(match.id);
      if (!previous || previous.score < match.score) map.set(match.id, match);
    }
  });
  // Quoted phrases are meant as names: allow approximate matches when nothing matched exactly.
  const fuzzySpans = spans.map((s, i) => (s.quoted && !perSpan.get(i)?.size ? i : -1)).filter((i) => i >= 0);
  if (fuzzySpans.length > 0) {
    const fuzzy = await context.graph.doLookup(
      fuzzySpans.map((i) => spans[i]!.text),
      { fuzzy: true, limit: 8, ...signal },
    );
    fuzzy.forEach((list, n) => {
      const map = new Map<string, NameMatch>();
      for (const match of list) map.set(match.id, match);
      perSpan.set(fuzzySpans[n]!, map);
    });
  }

  const linkedIds = [...new Set([...perSpan.values()].flatMap((m) => [...m.keys()]))];
  // How well each linked node's document fits the query: the whole query, and (when present) the
  // parenthesised asides, which often gloss a mention ("'seal' (decide irrevocably)").
  const contextScores = new Map<string, number>();
  if (linkedIds.length > 0) {
    const asides = [...query.matchAll(/\(([^()]*(?:\([^()]*\)[^()]*)*)\)/g)].map((m) => m[1]!).join(' ');
    const queries = asides.trim() ? [query, asides] : [query];
    const lists = await searchText(context.text, queries, {
      limit: linkedIds.length,
      filter: { ids: linkedIds },
      ...signal,
    });
    lists.forEach((hits, q) => {
      const max = Math.max(0, ...hits.map((h) => h.score));
      for (const hit of hits) {
        const share = max > 0 ? hit.score / max : 0;
        contextScores.set(hit.id, Math.max(contextScores.get(hit.id) ?? 0, q === 0 ? share : share * 1.01));
      }
    });
  }

  const nodes: LinkedNode[] = [];
  const shadowed = new Set<number>();
  const linkedSpans = [...perSpan].filter(([, m]) => m.size > 0).map(([i]) => i);
  for (const i of linkedSpans) {
    const span = spans[i]!;
    if (
      linkedSpans.some(
        (j) =>
          j !== i &&
          spans[j]!.start <= span.start &&
          spans[j]!.end >= span.end &&
          spans[j]!.words > span.words,
      )
    ) {
      shadowed.add(i);
    }
  }
  for (const [i, map] of perSpan) {
    const list = [...map.values()];
    if (list.length === 0) continue;
    const best = Math.max(...list.map((m) => contextScores.get(m.id) ?? 0));
    const ranked = list
      .map((m) => ({ m, context: best > 0 ? (contextScores.get(m.id) ?? 0) / best : 0 }))
      .sort((a, b) => b.context - a.context || b.m.score - a.m.score || (a.m.id < b.m.id ? -1 : 1));
    ranked.slice(0, options.nodesPerSpan ?? 4).forEach(({ m, context: ctx }, rank) => {
      nodes.push({
        span: i,
        id: m.id,
        type: m.type,
        name: m.name,
        match: m.score,
        context: ctx,
        contextRank: rank,
        ambiguity: list.length,
      });
    });
  }

  // Expand the most promising nodes: longer, rarer, better-fitting spans first.
  const priority = (n: LinkedNode) => {
    const span = spans[n.span]!;
    return (
      (span.quoted ? 3 : 0) + span.words + n.context - n.contextRank * 0.5 - (shadowed.has(n.span) ? 1 : 0)
    );
  };
  const expanded = [...new Set([...nodes].sort((a, b) => priority(b) - priority(a)).map((n) => n.id))].slice(
    0,
    options.maxExpanded ?? 16,
  );
  const firstHops = new Map<string, Map<string, GraphNeighbor[]>>();
  if (expanded.length > 0) {
    const neighbors = await context.graph.doNeighbors({
      seeds: expanded,
      direction: 'both',
      limitPerSeed: options.neighborsPerSeed ?? 400,
      ...signal,
    });
    for (const neighbor of neighbors) {
      const bySeed =
        firstHops.get(neighbor.seed) ?? firstHops.set(neighbor.seed, new Map()).get(neighbor.seed)!;
      const key = metapathKey([{ edgeType: neighbor.edgeType, direction: neighbor.direction }]);
      (bySeed.get(key) ?? bySeed.set(key, []).get(key)!).push(neighbor);
    }
  }
  const kept = nodes.filter((n) => firstHops.has(n.id) || expanded.includes(n.id));
  return { spans, nodes: kept, firstHops, shadowed };
}
