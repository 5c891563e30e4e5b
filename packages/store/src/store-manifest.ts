import type { EmbeddingModelV4 } from '@ai-sdk/provider';
import type {
  ArtifactStore,
  GraphStoreV1,
  RetrievalContext,
  SkbSchema,
  TextFieldInfo,
  TextIndexV1,
  TextIndexV2,
  VectorIndexV1,
} from '@weft/spec';

/**
 * A store directory (`--db <dir>`) holds everything built from one bundle:
 *
 *   <dir>/store.json   this manifest, written last: a directory without it is not a store
 *   <dir>/graph/       the graph store of an embedded backend (Kùzu); absent for a server backend
 *   <dir>/index/       the text and vector indexes (LanceDB) and the fitted local embedder
 *   <dir>/artifacts/   what `weft train` fitted (JSON files, FileArtifactStore)
 *
 * `weft ingest` builds a new directory beside the old one and swaps it in only when complete.
 */
export interface StoreManifest {
  readonly formatVersion: 1;
  readonly createdAt: string;
  readonly bundle: { readonly path: string; readonly name: string };
  readonly schema: SkbSchema;
  readonly counts: {
    readonly nodes: number;
    readonly edges: number;
    readonly nodesByType: Readonly<Record<string, number>>;
    readonly edgesByType: Readonly<Record<string, number>>;
  };
  /**
   * `provider`: the id of the `GraphBackendV1` that built the graph and opens it; `path`: what its
   * `open` takes (relative to the store directory for embedded backends, e.g. `graph`).
   */
  readonly graph: { readonly provider: string; readonly path: string };
  readonly indexes?: IndexManifest;
  /**
   * How many updates (`weft update`) were committed since the store was built: 0 or absent for a
   * store as `weft ingest` built it. The index paths then point into `versions/v<N>/`, and the graph
   * path too unless updates changed the graph in place (it then stays where it was).
   */
  readonly storeVersion?: number;
  /** When the last update was committed. */
  readonly updatedAt?: string;
  /** Records (node and edge upserts and deletions) applied by every update since the build. */
  readonly changedRecords?: number;
  /**
   * The folders the manifest before this one named (its graph and index paths): kept on disk while
   * this manifest is the store's, for readers still answering from that version.
   */
  readonly retainedPaths?: readonly string[];
}

export interface IndexManifest {
  readonly text: {
    readonly provider: string;
    readonly path: string;
    /** The searchable fields (absent in stores built before fields existed: `document` only). */
    readonly fields?: readonly TextFieldInfo[];
  };
  readonly vector?: {
    readonly provider: string;
    readonly path: string;
    /** e.g. `local:tfidf-lsa-256`, `openai:text-embedding-3-small`. */
    readonly embedder: string;
    readonly dimensions: number;
    /** The `--embedder` value the store was built with (recreates the query-side model). */
    readonly embedderSpec?: string;
    /** The ANN index over the vectors (`flat` = exact scan), e.g. `ivf_flat`. */
    readonly annIndex?: string;
  };
  /**
   * The storage settings the indexes were built with (e.g. `endpoint`, `region` of an `s3://` path),
   * without credentials: those come from the environment (`AWS_ACCESS_KEY_ID`, …) or the opener.
   */
  readonly storage?: Readonly<Record<string, string>>;
}

/** The indexes of an opened store, with the embedding model its queries must use. */
export interface OpenedIndexes {
  readonly text: TextIndexV1 | TextIndexV2;
  readonly vector?: VectorIndexV1;
  readonly embeddingModel?: EmbeddingModelV4;
  close(): Promise<void>;
}

/** A store opened for querying: the retrieval context every stack runs against. */
export interface OpenedStore {
  readonly directory: string;
  readonly manifest: StoreManifest;
  readonly graph: GraphStoreV1;
  /** Where trained parts are read from (`<dir>/artifacts`); also `context.artifacts`. */
  readonly artifacts: ArtifactStore;
  readonly context: RetrievalContext;
  close(): Promise<void>;
}
