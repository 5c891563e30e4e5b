/**
 * The `Candidate.scores` keys with one meaning across Weft. Traversers write them, rerankers read
 * them (a reranker lists what it reads in `RerankerV1.requiredScores`, and the pipeline warns when
 * candidates lack them). A key not listed here is private to the stages that share it.
 */
export interface KnownScores {
  /** BM25 of the query against the node's own document (name, aliases, text). */
  readonly bm25?: number;
  /** BM25 of the query against the node's relation-aware document (own text plus neighbour names). */
  readonly bm25Relations?: number;
  /** Cosine similarity of the query and node embeddings. */
  readonly dense?: number;
  /** Best link score in [0, 1] of a query mention naming a node adjacent to this one. */
  readonly anchorLink?: number;
  /** Best link score of a mention naming a node two hops away. */
  readonly anchorLink2?: number;
  /**
   * In [0, 1]: this node is next to a node the question describes instead of naming it — one its
   * words match (any type) that lies next to the question's other good matches — and that node's
   * words add to this one's own match.
   */
  readonly neighbourText?: number;
  /** The node itself is named by a query mention (link score in [0, 1]). */
  readonly anchorSelf?: number;
  /** Probability, in [0, 1], that the relation connecting the node to a linked mention is the one the query asks about. */
  readonly relationMatch?: number;
  /** How strongly the query asks for this node's type, in [0, 1]. */
  readonly targetType?: number;
  /** BM25 of the query without its linked mentions, among the nodes adjacent to a mention. */
  readonly bm25Restriction?: number;
  /** Evidence of planned paths (MorTraverser): summed link × path weights. */
  readonly structure?: number;
  /** Score of the best plan path that reached the node (MorTraverser). */
  readonly pathScore?: number;
  /** Calibrated confidence of the best plan path that reached the node (MorTraverser). */
  readonly pathConfidence?: number;
  /** Link score of the anchor a path started from (MorTraverser). */
  readonly link?: number;
  /** BM25 among the structural candidate set (MorTraverser). */
  readonly bm25InSet?: number;
  /** BM25 over the target types, the global text ranking (MorTraverser). */
  readonly bm25Global?: number;
  /**
   * The node is an endpoint of executed query-graph readings of the plan (paths with `endpoints`): per
   * anchor the relative score of its best such reading, in [0, 1], summed over the anchors.
   */
  readonly queryGraph?: number;
}

export type ScoreKey = keyof KnownScores;
