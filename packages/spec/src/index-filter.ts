/** Restricts an index search. Both given = both must hold. Applied before ranking (prefilter). */
export interface IndexFilter {
  /** Only documents of these node types. */
  readonly nodeTypes?: readonly string[];
  /** Only these node ids. */
  readonly ids?: readonly string[];
}

export interface IndexHit {
  readonly id: string;
  /** The node's type, when the index keeps it (saves callers a graph look-up). */
  readonly type?: string;
  /** Higher is better. BM25 for text indexes; cosine similarity for vector indexes. */
  readonly score: number;
}
