/**
 * The order of candidates before any training, the same on every KB: the node's own document when
 * the query names nothing specific, its relation-aware document as much as the query does (the gate
 * is the most specific mention's specificity), plus adjacency to a named node and, less, to a node
 * the question describes. Chosen on the train
 * and val splits of two KBs of different shapes (WordNet, Pokémon): on text-only queries it keeps
 * BM25's ranking, on relational ones it gains from the relations (docs/results.md).
 */
export function untrainedScore(
  scores: Readonly<Record<string, number>>,
  max: { readonly document: number; readonly combined: number },
  gate: number,
): number {
  const document = max.document > 0 ? (scores.bm25 ?? 0) / max.document : 0;
  const combined = max.combined > 0 ? (scores.bm25Relations ?? 0) / max.combined : document;
  return (
    (1 - gate) * document +
    gate * combined +
    untrainedAnchorWeight * (scores.anchorLink ?? 0) +
    untrainedNeighbourTextWeight * (scores.neighbourText ?? 0)
  );
}

/** Weight of adjacency to a named node in the untrained order. */
export const untrainedAnchorWeight = 0.3;

/** Weight of a neighbour the question describes (`neighbourText`) in the untrained order. */
export const untrainedNeighbourTextWeight = 0.15;
