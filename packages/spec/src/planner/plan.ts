import type { EdgeDirection } from '../graph-store/graph-store-v1.ts';

/** A node type with how strongly the query asks for it, in [0, 1]. */
export interface TypeScore {
  readonly type: string;
  readonly score: number;
}

/** A mention in the query linked (tentatively) to graph nodes. */
export interface Anchor {
  /** The query text of the mention, e.g. `"Nikon F-mount"`. */
  readonly mention: string;
  /**
   * Linked nodes, best first, with link scores in [0, 1]. `named`: whether the mention spells the
   * node's name or an alias (false: it describes the node; absent: not said, taken as named).
   */
  readonly candidates: readonly {
    readonly id: string;
    readonly score: number;
    readonly type: string;
    readonly named?: boolean;
  }[];
  /** Confidence that the mention is an entity of the graph at all, in [0, 1]. */
  readonly confidence: number;
}

/** One hop of a planned typed path. */
export interface PlanHop {
  readonly edgeType: string;
  /** Seen from the previous node of the path. */
  readonly direction: EdgeDirection;
  /** Types the hop may land on; absent = any. */
  readonly nodeTypes?: readonly string[];
  /** Text the landing node's document should match (MoR's per-hop textual restriction). */
  readonly restriction?: string;
}

/**
 * A typed path from an anchor (or from text matches of `startTypes`) to the target types,
 * e.g. Institution → Author → Paper ← Field.
 */
export interface PlanPath {
  /** Index into `Plan.anchors`; absent when the path starts from text matches. */
  readonly anchor?: number;
  readonly startTypes?: readonly string[];
  readonly hops: readonly PlanHop[];
  /** Relative strength among the plan's paths (the best path scores 1). */
  readonly score: number;
  /** Calibrated probability that the query means this path, when the planner can estimate it. */
  readonly confidence?: number;
  /**
   * The node of `anchor` the path starts from, when the planner chose one sense of the mention (a
   * query-graph reading: this node has edges of this path); absent = any of the anchor's candidates.
   */
  readonly node?: string;
  /**
   * The nodes the path reaches whose documents match the question, best first, when the planner
   * followed it in the graph: the answer candidates of this reading. Absent when not followed.
   */
  readonly endpoints?: readonly string[];
}

/** A term of a triplet: a variable, or an anchor (a constant, FocusedRetriever's sense). */
export type PlanTerm =
  | { readonly kind: 'variable'; readonly name: string }
  | { readonly kind: 'anchor'; readonly anchor: number };

export interface PlanVariable {
  readonly name: string;
  readonly nodeTypes?: readonly string[];
  readonly restriction?: string;
}

/** `subject -[edgeType]-> object` must hold in the graph. */
export interface PlanTriplet {
  readonly subject: PlanTerm;
  readonly edgeType: string;
  readonly object: PlanTerm;
}

/** What a planner makes of a query: what is asked for, from where, along which relations. */
export interface Plan {
  readonly query: string;
  /** Node types asked for, best first. Empty = unknown (any target type). */
  readonly targetTypes: readonly TypeScore[];
  readonly anchors: readonly Anchor[];
  /** Typed paths for traversal (MoR), best first. */
  readonly paths: readonly PlanPath[];
  /** The same intent as constraints for grounding (FocusedRetriever). */
  readonly variables: readonly PlanVariable[];
  readonly triplets: readonly PlanTriplet[];
  /** Name of the variable the answers bind to. */
  readonly target?: string;
  /** What remains of the query once anchors and type words are taken out. */
  readonly restriction: string;
  /**
   * What the question says its answers are not ("(not documentation)", "other than Czech"): words
   * whose documents are no answer. Absent when it says nothing of the kind.
   */
  readonly exclusion?: string;
  /** The planner's confidence in the whole plan, in [0, 1]. */
  readonly confidence: number;
  /** The raw LLM output, when an LLM wrote the plan (e.g. Cypher text or JSON). */
  readonly raw?: string;
  /**
   * The Cypher query the plan was read from (FocusedRetriever's planner): one read-only statement,
   * without a code fence. `variables`, `triplets`, `anchors` and `target` hold what it was parsed
   * into, mapped onto the schema; traversers ground those, and the text is kept for explanations
   * and for stores that want to run it (`GraphStoreV1.doCypher`, read-only). Absent when no Cypher
   * was written or it was rejected (e.g. a writing clause).
   */
  readonly cypher?: string;
}
