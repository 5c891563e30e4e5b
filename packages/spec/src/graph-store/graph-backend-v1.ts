import type { SkbEdge, SkbNode, SkbSchema } from '../skb/skb.ts';
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
 * Room is left for incremental updates (`update`): a backend without it is rebuilt from the bundle.
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
   * resolves a relative one against `baseDirectory` (the store directory).
   */
  open(
    location: string,
    options?: GraphOpenOptions & { readonly baseDirectory?: string },
  ): Promise<GraphStoreV1>;
  // `update(location, changes)` (incremental updates) is reserved for a later contract version.
}
