import type { TextIndexV1 } from '../text-index/text-index-v1.ts';
import type { TextFieldInfo, TextIndexV2 } from '../text-index/text-index-v2.ts';
import type { VectorIndexV1 } from '../vector-index/vector-index-v1.ts';

/** One node as an index backend stores it: its document parts, its relation text, its embedding. */
export interface IndexNodeRecord {
  readonly id: string;
  readonly type: string;
  readonly name: string;
  readonly aliases?: readonly string[];
  readonly text: string;
  /** Neighbour names by relation (written when the build asks for relation fields). */
  readonly relations?: string;
  /** The node's embedding; every record carries one when the build has `vectorDimensions`. */
  readonly vector?: ArrayLike<number>;
}

/**
 * Settings of the storage an index lives on, e.g. LanceDB's object-store keys (`endpoint`,
 * `region`, `allow_http`, `aws_access_key_id`, …). Secrets among them are never written to a
 * store manifest: see `IndexBackendV1.secretOption`.
 */
export type IndexStorageOptions = Readonly<Record<string, string>>;

export interface IndexBuildInput {
  /**
   * The store directory being built. Without `target`, the backend writes into a folder of its own
   * inside it and returns that folder's relative path as `location`; files that must stay beside
   * the store (small sidecars) go there too.
   */
  readonly directory: string;
  /** Where to write instead of the store directory: an absolute folder or a URL such as `s3://bucket/prefix`. */
  readonly target?: string;
  readonly storageOptions?: IndexStorageOptions;
  /** Streamed once. */
  readonly nodes: AsyncIterable<IndexNodeRecord> | Iterable<IndexNodeRecord>;
  /** Index the `relations` and `combined` text fields besides `document`. */
  readonly relationFields: boolean;
  /** The embedding size; absent or 0: no vector index. */
  readonly vectorDimensions?: number;
  readonly onProgress?: (phase: string, done: number) => void;
}

export interface IndexBuildResult {
  /** What `open` takes: a path relative to the store directory, an absolute folder, or a URL. Stored as `indexes.text.path`. */
  readonly location: string;
  readonly rows: number;
  /** The text fields that can be searched. */
  readonly fields: readonly TextFieldInfo[];
  /** The ANN index over the vectors (`flat` = exact scan); absent without vectors. */
  readonly annIndex?: string;
}

export interface IndexOpenOptions {
  /** The store directory: a relative `location` and the sidecars of a remote one are found there. */
  readonly baseDirectory?: string;
  readonly storageOptions?: IndexStorageOptions;
  /** The embedder the stored vectors came from; the vector index is opened only when given. */
  readonly embedderId?: string;
}

/** A store's text index, and its vector index when it has one. */
export interface OpenedIndexesV1 {
  readonly text: TextIndexV1 | TextIndexV2;
  readonly vector?: VectorIndexV1;
  close(): Promise<void>;
}

/**
 * An engine behind Weft's index seam: it builds the text (BM25) and vector (ANN) indexes of a
 * store's nodes and opens them again, on local disk or object storage. A store records the
 * backend's `id` in its manifest (`indexes.text.provider`) and opens the indexes through the
 * backend of that id. Implementation: `@weft/index-lancedb` (`lancedb`).
 */
export interface IndexBackendV1 {
  readonly specificationVersion: 'v1';
  /** The provider id written to and read from store manifests, e.g. `'lancedb'`. */
  readonly id: string;
  /** Whether a storage option holds a secret (never recorded in a manifest, never printed). */
  secretOption(key: string): boolean;
  build(input: IndexBuildInput): Promise<IndexBuildResult>;
  open(location: string, options?: IndexOpenOptions): Promise<OpenedIndexesV1>;
}
