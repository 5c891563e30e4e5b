import { FileArtifactStore } from '@weft/core';
import { WeftError } from '@weft/kit';
import type {
  GraphBackendV1,
  GraphStoreV1,
  IndexBackendV1,
  IndexStorageOptions,
  RetrievalContext,
  TextIndexV1,
} from '@weft/spec';
import { resolveGraphBackend } from './graph-backends.ts';
import { artifactsDirectory } from './replace-artifacts.ts';
import { openIndexes } from './store-indexes.ts';
import { manifestFileName, readManifest, recoverStoreDirectory } from './store-directory.ts';
import type { OpenedIndexes, OpenedStore, StoreManifest } from './store-manifest.ts';
import { finishInterruptedUpdate } from './apply-changes.ts';
import { lockForUpdate, storeVersion } from './store-versions.ts';

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

/** How long `openStore` waits for an in-place update holding the graph (another process's). */
const updateWaitMs = 300_000;

/**
 * Opens the graph `store.json` names, with the manifest that goes with it. An in-place update
 * (`applyChanges`) holds the graph for its duration: the open waits for it. A graph that records a
 * later store version than `store.json` was changed in place by an update killed after its graph
 * committed: that update is finished first (`finishInterruptedUpdate`), so the store answers as
 * the new version, never graph and indexes of two versions.
 */
async function openConsistentGraph(
  directory: string,
  options: OpenStoreOptions,
): Promise<{ manifest: StoreManifest; graph: GraphStoreV1 }> {
  const started = performance.now();
  for (let attempt = 0; ; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(200, 10 * attempt)));
    const manifest = await readManifest(directory);
    const backend = await resolveGraphBackend(manifest.graph.provider, options.graphBackends);
    let graph: GraphStoreV1;
    try {
      graph = await backend.open(manifest.graph.path, { baseDirectory: directory });
    } catch (error) {
      const busy = WeftError.is(error) && error.details.busy === true;
      if (busy && performance.now() - started < updateWaitMs) continue;
      throw error;
    }
    const recorded = graph.storeVersion;
    if (recorded === undefined || recorded <= storeVersion(manifest)) return { manifest, graph };
    // An in-place update committed between reading the manifest and opening the graph.
    const now = await readManifest(directory);
    if (storeVersion(now) === recorded && now.graph.path === manifest.graph.path)
      return { manifest: now, graph };
    {
      // An update committed the graph in place and died before its manifest: finish it, unless an
      // update holds the store (it finishes it itself).
      let release: (() => Promise<void>) | undefined;
      try {
        release = await lockForUpdate(directory);
      } catch {
        release = undefined;
      }
      if (release) {
        try {
          await finishInterruptedUpdate(directory, backend, graph, {
            ...(options.graphBackends ? { graphBackends: options.graphBackends } : {}),
          });
        } finally {
          await release();
        }
        const finished = await readManifest(directory);
        if (storeVersion(finished) === recorded && finished.graph.path === manifest.graph.path)
          return { manifest: finished, graph };
      }
    }
    await graph.close();
    if (performance.now() - started >= updateWaitMs)
      throw new WeftError({
        code: 'WEFT_STORE_FAILED',
        message: `${directory}: the graph records store version ${recorded}, ${manifestFileName} ${storeVersion(manifest)}, and the update that changed it cannot be finished`,
      });
  }
}

export async function openStore(directory: string, options: OpenStoreOptions = {}): Promise<OpenedStore> {
  await recoverStoreDirectory(directory);
  const { manifest, graph } = await openConsistentGraph(directory, options);
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
