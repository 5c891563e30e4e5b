import type { EdgeDirection } from '../graph-store/graph-store-v1.ts';

/** How a node on a trajectory was reached. */
export type HopVia = 'anchor' | 'structure' | 'text' | 'vector';

/** One node on a trajectory, with the edge that led to it (absent on the first node). */
export interface TrajectoryHop {
  readonly node: string;
  readonly nodeType?: string;
  readonly edgeType?: string;
  readonly direction?: EdgeDirection;
  /** Text score of this node for the query (and the hop's restriction), when known. */
  readonly textScore?: number;
  readonly via: HopVia;
}

/** The path that found a candidate: first hop is where it started, last hop is the candidate. */
export interface Trajectory {
  readonly hops: readonly TrajectoryHop[];
  /** Which plan path produced it (index into `Plan.paths`), when one did. */
  readonly path?: number;
}

export interface Candidate {
  readonly id: string;
  readonly type?: string;
  /** The rank-defining score; higher is better. */
  readonly score: number;
  /** Named component scores, e.g. `{ bm25: 7.1, dense: 0.62 }`; shared keys are listed in `KnownScores`. */
  readonly scores: Readonly<Record<string, number>>;
  readonly trajectories: readonly Trajectory[];
  /** Which traverser (or fusion) produced it. */
  readonly source?: string;
}
