import type { Neighbourhood, Triple } from './neighbourhood.ts';
import { verbaliseTriple } from './neighbourhood.ts';
import { VerbalisedBm25 } from './verbalised-bm25.ts';

/** A triple of the neighbourhood with its verbalisation and its score for the query. */
export interface ScoredTriple {
  readonly triple: Triple;
  /** Its index in `Neighbourhood.triples`. */
  readonly index: number;
  readonly text: string;
  readonly score: number;
}

export interface RelationExpertResult {
  /** Triples with a positive score, best first, at most `topK`. */
  readonly triples: readonly ScoredTriple[];
  /** Per node, the best score of a top triple it is an end of. */
  readonly nodes: ReadonlyMap<string, number>;
}

/**
 * MixRAG's relation expert: every triple of the neighbourhood verbalised ("<head> <relation>
 * <tail>") and ranked by BM25 against the query (an in-memory index built per query), optionally
 * fused with a dense score (`dense`, cosine per triple, when the store has vectors) by reciprocal
 * rank, so relation-shaped questions are matched on edges, not only on nodes.
 */
export function relationExpert(
  query: string,
  neighbourhood: Neighbourhood,
  options: {
    readonly topK?: number;
    readonly dense?: ReadonlyMap<number, number>;
    /**
     * Per node, a score in [0, 1] that breaks ties between triples (the entity expert's): the many
     * triples that match only a named node ("X learns Flare Blitz") are ordered by how well their
     * other end matches the query, not alphabetically.
     */
    readonly prior?: ReadonlyMap<string, number>;
    /**
     * Per named node, its link weight in [0, 1]: a triple at a node the query names is the relation
     * the question asks about, and counts `1 + weight` times (within the neighbourhood, a named
     * node's name is common, so BM25 alone would rank it below rare words of the text seeds' edges).
     */
    readonly named?: ReadonlyMap<string, number>;
  } = {},
): RelationExpertResult {
  const texts = neighbourhood.triples.map((t) => verbaliseTriple(t, neighbourhood.names));
  const lexical = new VerbalisedBm25(texts).score(query);
  let scores = lexical;
  if (options.dense && options.dense.size > 0) {
    const rank = (values: readonly number[]) => {
      const order = values
        .map((v, i) => [v, i] as const)
        .filter(([v]) => v > 0)
        .sort((a, b) => b[0] - a[0]);
      const out = new Map<number, number>();
      order.forEach(([, i], r) => {
        out.set(i, r);
      });
      return out;
    };
    const lexicalRank = rank(lexical);
    const denseRank = rank(texts.map((_, i) => options.dense!.get(i) ?? 0));
    scores = texts.map(
      (_, i) =>
        (lexicalRank.has(i) ? 1 / (60 + lexicalRank.get(i)!) : 0) +
        (denseRank.has(i) ? 1 / (60 + denseRank.get(i)!) : 0),
    );
  }
  const prior = (t: Triple) => Math.max(options.prior?.get(t.head) ?? 0, options.prior?.get(t.tail) ?? 0);
  const named = (t: Triple) => Math.max(options.named?.get(t.head) ?? 0, options.named?.get(t.tail) ?? 0);
  const triples = neighbourhood.triples
    .map((triple, i) => ({
      triple,
      index: i,
      text: texts[i]!,
      score: scores[i]! > 0 ? scores[i]! * (1 + named(triple)) * (1 + 1e-3 * prior(triple)) : 0,
    }))
    .filter((t) => t.score > 0)
    .sort((a, b) => b.score - a.score || a.text.localeCompare(b.text))
    .slice(0, options.topK ?? 50);
  const nodes = new Map<string, number>();
  for (const { triple, score } of triples)
    for (const id of [triple.head, triple.tail]) nodes.set(id, Math.max(nodes.get(id) ?? 0, score));
  return { triples, nodes };
}
