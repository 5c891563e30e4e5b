import { FileArtifactStore } from '@weft/core';
import { WeftError } from '@weft/kit';
import type {
  GraphBackendV1,
  IndexBackendV1,
  IndexStorageOptions,
  RetrievalContext,
  TextIndexV1,
} from '@weft/spec';
import { resolveGraphBackend } from './graph-backends.ts';
import { artifactsDirectory } from './replace-artifacts.ts';
import { openIndexes } from './store-indexes.ts';
import { readManifest, recoverStoreDirectory } from './store-directory.ts';
import type { OpenedIndexes, OpenedStore } from './store-manifest.ts';

/** Stands in for the text index of a store built without indexes: every search says so. */
const missingTextIndex: TextIndexV1 = {
  specificationVersion: 'v1',
  provider: 'none',
  maxQueriesPerCall: 1,
  async doSearch() {
    throw new WeftError({
      code: 'WEFT_UNSUPPORTED',
      message: 'the store has no text index; re-run weft ingest',
    });
  },
  async close() {},
};

/**
 * Opens a store built by `weft ingest` for querying: the graph read-only (several processes may
 * open one store at once), the indexes when the store has them, and its artefacts folder.
 */
export interface OpenStoreOptions {
  /** Embed queries with this embedder spec; it must match the one the vectors were built with. */
  readonly queryEmbedder?: string;
  /** Graph backends besides the built-in ones; the manifest's `graph.provider` picks one by id. */
  readonly graphBackends?: readonly GraphBackendV1[];
  /**
   * Storage settings of indexes on object storage, over those the manifest records; credentials
   * otherwise come from the environment (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, …).
   */
  readonly indexStorageOptions?: IndexStorageOptions;
  readonly indexBackends?: readonly IndexBackendV1[];
}

export async function openStore(directory: string, options: OpenStoreOptions = {}): Promise<OpenedStore> {
  await recoverStoreDirectory(directory);
  const manifest = await readManifest(directory);
  const backend = await resolveGraphBackend(manifest.graph.provider, options.graphBackends);
  const graph = await backend.open(manifest.graph.path, { baseDirectory: directory });
  let indexes: OpenedIndexes | undefined;
  try {
    if (manifest.indexes) {
      indexes = await openIndexes(directory, manifest.indexes, {
        ...(options.queryEmbedder === undefined ? {} : { queryEmbedder: options.queryEmbedder }),
        ...(options.indexStorageOptions ? { storageOptions: options.indexStorageOptions } : {}),
        ...(options.indexBackends ? { indexBackends: options.indexBackends } : {}),
      });
    }
  } catch (error) {
    await graph.close();
    throw error;
  }
  const artifacts = new FileArtifactStore(artifactsDirectory(directory));
  const context: RetrievalContext = {
    schema: manifest.schema,
    graph,
    text: indexes?.text ?? missingTextIndex,
    ...(indexes?.vector ? { vector: indexes.vector } : {}),
    ...(indexes?.embeddingModel ? { embeddingModel: indexes.embeddingModel } : {}),
    artifacts,
  };
  return {
    directory,
    manifest,
    graph,
    artifacts,
    context,
    async close() {
      await indexes?.close();
      await graph.close();
    },
  };
}
