import type { EdgeDirection, IndexHit } from '@weft/spec';

/** How a candidate touches a node the query names. */
export interface Adjacency {
  /** Index into `plan.anchors`. */
  readonly anchor: number;
  /** The named node and its type. */
  readonly node: string;
  readonly nodeType: string;
  readonly edgeType: string;
  /** Followed from the anchor's node towards the candidate. */
  readonly direction: EdgeDirection;
  readonly weight: number;
}

/** The candidates of one traversal with every score found for them so far. */
export interface Pool {
  /** Candidate ids in the order they joined; `members` holds the same ids for look-ups. */
  readonly ids: string[];
  readonly members: Set<string>;
  readonly types: Map<string, string>;
  readonly document: Map<string, number>;
  readonly combined: Map<string, number>;
  readonly dense: Map<string, number>;
  readonly adjacency: Map<string, Adjacency[]>;
  /** `neighbourText` of the candidates next to a described match. */
  readonly neighbourText: Map<string, number>;
}

export const emptyPool = (): Pool => ({
  ids: [],
  members: new Set(),
  types: new Map(),
  document: new Map(),
  combined: new Map(),
  dense: new Map(),
  adjacency: new Map(),
  neighbourText: new Map(),
});

/** Adds the first `k` hits of a ranking to the pool, their scores into `into`. */
export const add = (pool: Pool, hits: readonly IndexHit[], into: Map<string, number>, k: number) => {
  for (const hit of hits.slice(0, k)) {
    if (!into.has(hit.id)) into.set(hit.id, hit.score);
    if (!pool.types.has(hit.id) && hit.type !== undefined) pool.types.set(hit.id, hit.type);
    join(pool, hit.id);
  }
};

export function join(pool: Pool, id: string): void {
  if (pool.members.has(id)) return;
  pool.members.add(id);
  pool.ids.push(id);
}
