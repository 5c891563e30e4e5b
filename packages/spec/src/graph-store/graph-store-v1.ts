import type { SkbNode, SkbSchema } from '../skb/skb.ts';

/** Which way an edge is followed, seen from the node we start at. */
export type EdgeDirection = 'out' | 'in';
export type ExpandDirection = EdgeDirection | 'both';

export interface GraphNeighborsOptions {
  /** Nodes to expand from; all of them are expanded in one call. */
  readonly seeds: readonly string[];
  /** Edge types to follow; absent = every type. */
  readonly edgeTypes?: readonly string[];
  readonly direction: ExpandDirection;
  /** Keep only neighbours of these node types; absent = every type. */
  readonly nodeTypes?: readonly string[];
  /** At most this many neighbours per seed (which ones is the store's choice, but deterministic). */
  readonly limitPerSeed?: number;
  readonly abortSignal?: AbortSignal;
}

/** One step of an expansion: `seed` reached `node` over an edge of `edgeType`, followed `direction`. */
export interface GraphNeighbor {
  readonly seed: string;
  readonly node: string;
  readonly nodeType: string;
  readonly edgeType: string;
  /** `'out'`: the edge is seed → node as stored; `'in'`: node → seed. */
  readonly direction: EdgeDirection;
}

export type NameMatchKind = 'exact' | 'alias' | 'case-insensitive' | 'fuzzy';

export interface GraphLookupOptions {
  /** Only nodes of these types. */
  readonly nodeTypes?: readonly string[];
  /** At most this many matches per name (default: store's choice, at least 10). */
  readonly limit?: number;
  /** Fall back to approximate matching when nothing matches exactly (default true). */
  readonly fuzzy?: boolean;
  readonly abortSignal?: AbortSignal;
}

/** A node whose name or alias matches a looked-up string; `score` in [0, 1], 1 = exact name. */
export interface NameMatch {
  readonly id: string;
  readonly type: string;
  readonly name: string;
  readonly match: NameMatchKind;
  readonly score: number;
  /** The name or alias that matched. */
  readonly matched: string;
}

export type CypherParam = string | number | boolean | null | readonly CypherParam[];

export interface GraphCypherOptions {
  readonly params?: Readonly<Record<string, CypherParam>>;
  /** Abort the query after this many milliseconds. */
  readonly timeoutMs?: number;
  /** Return at most this many rows; `truncated` says when more existed. */
  readonly maxRows?: number;
  readonly abortSignal?: AbortSignal;
}

export interface CypherResult {
  readonly columns: readonly string[];
  readonly rows: readonly (readonly unknown[])[];
  readonly truncated: boolean;
}

export interface GraphSampleOptions {
  /** Only nodes of these types; absent = every type. */
  readonly nodeTypes?: readonly string[];
  readonly count: number;
  readonly seed: number;
  readonly abortSignal?: AbortSignal;
}

export interface GraphStats {
  readonly nodes: number;
  readonly edges: number;
  readonly nodesByType: Readonly<Record<string, number>>;
  readonly edgesByType: Readonly<Record<string, number>>;
  readonly degree: {
    readonly mean: number;
    readonly max: number;
    readonly p50: number;
    readonly p95: number;
  };
}

/**
 * A typed graph store holding one SKB. Implementations: `@weft/graph-kuzu` (Kùzu, embedded),
 * the in-memory reference store in `@weft/core/test`.
 *
 * Users do not call `do*` methods; they call the functions of `@weft/core`, which add tracing,
 * timing and typed errors.
 */
export interface GraphStoreV1 {
  readonly specificationVersion: 'v1';
  /** e.g. `'kuzu'`, `'memory'`. */
  readonly provider: string;
  /** Whether `doCypher` is available. */
  readonly supportsCypher: boolean;
  /**
   * Optional: the store version this graph was last changed to by an update
   * (`GraphBackendV1.updateInPlace` or `update`); absent when no update recorded one. A store
   * compares it with its manifest's to tell a graph changed in place apart from the one it names.
   */
  readonly storeVersion?: number | undefined;

  doGetSchema(): Promise<SkbSchema>;
  /** Nodes in the order of `ids`; `undefined` where an id is unknown. */
  doGetNodes(
    ids: readonly string[],
    options?: { readonly abortSignal?: AbortSignal },
  ): Promise<(SkbNode | undefined)[]>;
  /** Typed one-hop expansion from many seeds at once. */
  doNeighbors(options: GraphNeighborsOptions): Promise<GraphNeighbor[]>;
  /** Entity linking: matches for each of `names`, in order, best first. */
  doLookup(names: readonly string[], options?: GraphLookupOptions): Promise<NameMatch[][]>;
  /** Read-only, parameterised Cypher. Writing statements are rejected before execution. */
  doCypher(query: string, options?: GraphCypherOptions): Promise<CypherResult>;
  doStats(): Promise<GraphStats>;
  /**
   * Optional: up to `count` node ids of the given types, a deterministic function of `seed` (the
   * same store and seed give the same sample). What query synthesis and training draw from.
   */
  doSampleNodes?(options: GraphSampleOptions): Promise<string[]>;
  close(): Promise<void>;
}
