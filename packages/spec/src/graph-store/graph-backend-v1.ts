import type { SkbEdge, SkbNode, SkbSchema } from '../skb/skb.ts';
import type { SkbChangeSet } from '../skb/skb-change-set.ts';
import type { GraphStoreV1 } from './graph-store-v1.ts';

/**
 * What a graph backend builds from: the bundle's schema and its records, streamed once each
 * (validate the bundle first: a build trusts its input).
 */
export interface GraphBuildInput {
  readonly schema: SkbSchema;
  readonly nodes: AsyncIterable<SkbNode> | Iterable<SkbNode>;
  readonly edges: AsyncIterable<SkbEdge> | Iterable<SkbEdge>;
  /**
   * The store directory being built. An embedded backend writes into a folder of its own inside it
   * (e.g. `graph/`) and returns that folder's relative path as `location`; a server backend may
   * keep scratch files there.
   */
  readonly directory: string;
  /**
   * The backend-specific target given after the backend id, e.g. the `postgres://…` URL of
   * `--graph postgres://…`; absent for embedded backends.
   */
  readonly target?: string;
  /** `phase` is the backend's own (e.g. `copy-nodes`); `done` counts records. */
  readonly onProgress?: (phase: string, done: number) => void;
  readonly abortSignal?: AbortSignal;
}

/** What a build made: where to open it again and what it holds. */
export interface GraphBuildResult {
  /**
   * What `open` takes to open this graph again: a path relative to the store directory for
   * embedded backends (e.g. `graph`), or a server location (e.g. a URL naming a schema).
   * Stored in the store manifest as `graph.path`.
   */
  readonly location: string;
  readonly nodes: number;
  readonly edges: number;
  readonly nodesByType: Readonly<Record<string, number>>;
  readonly edgesByType: Readonly<Record<string, number>>;
  /** Seconds per phase, the backend's own phase names. */
  readonly timings: Readonly<Record<string, number>>;
}

/**
 * What `update` applies and where: the graph at `location` (as `build` returned it, relative to
 * `baseDirectory`) is left untouched, and the changed graph is written as a new one under
 * `directory`, so a store can switch to it atomically and readers of the old one keep answering.
 */
export interface GraphUpdateInput {
  /** The graph to start from: a `location` returned by `build` or an earlier `update`. */
  readonly location: string;
  /** The store directory that relative locations are resolved against. */
  readonly baseDirectory: string;
  /** A new, empty folder inside the store directory for the changed graph (embedded backends). */
  readonly directory: string;
  readonly schema: SkbSchema;
  /** A change set validated against the graph at `location` (`readChangeSet` of `@weft/skb`). */
  readonly changes: SkbChangeSet;
  /** The store version the changed graph records (`GraphStoreV1.storeVersion`), when given. */
  readonly version?: number;
  readonly onProgress?: (phase: string, done: number) => void;
}

/** Where `updateInPlace` opens the graph: a `location` as `build` returned it. */
export interface GraphInPlaceInput {
  readonly location: string;
  /** The store directory that relative locations are resolved against. */
  readonly baseDirectory: string;
}

/** What `GraphInPlaceSession.apply` changes: a change set and the store version it makes. */
export interface GraphInPlaceChanges {
  readonly schema: SkbSchema;
  /** A change set validated against the graph (`readChangeSet` of `@weft/skb`). */
  readonly changes: SkbChangeSet;
  /** The store version the graph records once committed (`GraphStoreV1.storeVersion`). */
  readonly version: number;
  /** The graph's counts before the change (the store manifest's); the result's are derived from them. */
  readonly counts: Pick<GraphBuildResult, 'nodes' | 'edges' | 'nodesByType' | 'edgesByType'>;
  readonly onProgress?: (phase: string, done: number) => void;
}

/**
 * A graph opened for writing by `updateInPlace`: the only process (and the only opener in it) with
 * the graph open until `close`. `apply` changes it in one engine transaction that nothing else sees
 * until `commit`; a process killed before `commit` leaves the graph as it was, one killed after it
 * the graph with the changes (the engine's write-ahead log).
 */
export interface GraphInPlaceSession {
  /**
   * Reads of the graph: before `apply` as it was, after `commit` with the changes. Not to be read
   * between the two (Kùzu 0.11 reads edges created in an open transaction wrongly). Valid until
   * `close`; its own `close` does nothing.
   */
  readonly graph: GraphStoreV1;
  /** The store version the graph records (`GraphStoreV1.storeVersion`), before `apply`. */
  readonly version: number | undefined;
  /** Applies the changes in a transaction left open, and returns what the graph then holds. */
  apply(input: GraphInPlaceChanges): Promise<GraphBuildResult>;
  /** Commits the transaction: from here a kill leaves the changed graph. */
  commit(): Promise<void>;
  /** Rolls back what was not committed and closes the graph (an embedded engine checkpoints). */
  close(): Promise<void>;
}

export interface GraphOpenOptions {
  /** Open for writing (default false: read-only, which several processes may do at once). */
  readonly readWrite?: boolean;
}

/**
 * A graph engine behind Weft's graph seam: it builds a graph from a bundle and opens one as a
 * `GraphStoreV1`. A store records the backend's `id` in its manifest (`graph.provider`) and opens
 * the graph through the backend of that id. Implementations: `@weft/graph-kuzu` (`kuzu`),
 * `@weft/graph-ladybug` (`ladybug`), `@weft/graph-postgres` (`postgres`).
 *
 * Incremental updates (`update`) are optional: a backend without them is rebuilt from the bundle.
 */
export interface GraphBackendV1 {
  readonly specificationVersion: 'v1';
  /** The provider id written to and read from store manifests, e.g. `'kuzu'`. */
  readonly id: string;
  /** Whether the graph lives beside the store's files (`true`) or on a server (`false`). */
  readonly embedded: boolean;
  build(input: GraphBuildInput): Promise<GraphBuildResult>;
  /**
   * Opens a graph built by `build`. `location` is the build's `location`; an embedded backend
   * resolves a relative one against `baseDirectory` (the store directory), and a server backend may
   * keep there what it loads from the server, for the next process (`@weft/graph-postgres`: `graph/`).
   */
  open(
    location: string,
    options?: GraphOpenOptions & { readonly baseDirectory?: string },
  ): Promise<GraphStoreV1>;
  /**
   * Optional: writes the graph at `input.location` with `input.changes` applied as a new graph and
   * returns where it is (`location` relative to `input.directory`) and what it holds. The old graph
   * must stay as it was (readers may still have it open); a failed or killed update leaves only
   * files under `input.directory`, which the caller removes. A backend without it cannot update a
   * store in place (`weft update` refuses; `weft ingest` rebuilds it).
   */
  update?(input: GraphUpdateInput): Promise<GraphBuildResult>;
  /**
   * Optional: opens the graph at `input.location` to be changed where it is, in the engine's own
   * transaction (`GraphInPlaceSession`), so that an update writes only what changes. Resolves to
   * `undefined` when that cannot be done now — another process or opener has the graph open (its
   * readers must keep answering) — and the caller then uses `update`. A backend without it always
   * updates by `update`.
   */
  updateInPlace?(input: GraphInPlaceInput): Promise<GraphInPlaceSession | undefined>;
}
