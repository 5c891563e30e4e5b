import path from 'node:path';
import type { EmbeddingModelV4 } from '@ai-sdk/provider';
import { assertEmbedderMatches, embedderId, WeftError } from '@weft/kit';
import {
  createEmbeddingModel,
  EmbeddingWorkers,
  embedTexts,
  LocalEmbeddingModel,
  parseEmbedderSpec,
} from '@weft/embed-local';
import type { IndexBackendV1, IndexNodeRecord, IndexStorageOptions, SkbNode, SkbSchema } from '@weft/spec';
import {
  CachedEmbedder,
  type EmbeddingStats,
  type RemoteEmbeddingOptions,
  remoteEmbedderNamespace,
} from './cached-embedder.ts';
import { EmbeddingCache } from './embedding-cache.ts';
import { defaultIndexBackend, recordableStorageOptions, resolveIndexBackend } from './index-backends.ts';
import type { IndexManifest, OpenedIndexes } from './store-manifest.ts';

/** A node's relation text (see `RelationDocuments`). */
export interface RelationText {
  text(id: string): string;
}

export interface BuildIndexesOptions {
  /** `<store>/index` of the store being built (empty, created by the caller). */
  readonly directory: string;
  readonly schema: SkbSchema;
  /** Streams the bundle's nodes; may be called more than once (e.g. fit the embedder, then write). */
  readonly nodes: () => AsyncIterable<SkbNode>;
  readonly nodeCount: number;
  /** `local` (default) or a provider spec such as `openai:text-embedding-3-small`. */
  readonly embedder: string;
  /**
   * Each node's relation text (see `RelationDocuments`): when given, the text index gets the
   * `relations` and `combined` fields besides `document`. A promise is awaited only when the first
   * rows are written, so it can be built while the embedder is fitted.
   */
  readonly relations?: RelationText | Promise<RelationText>;
  readonly onProgress?: (phase: string, done: number, total?: number) => void;
  /** Where the indexes go (see `parseIndexesLocation`); default: `index/lance` in the store. */
  readonly location?: string;
  /** Storage settings of `location`; the non-secret ones are recorded in the manifest. */
  readonly storageOptions?: IndexStorageOptions;
  /** Index backends besides the built-in one (LanceDB), chosen by `indexBackend`. */
  readonly indexBackends?: readonly IndexBackendV1[];
  readonly indexBackend?: string;
  /**
   * The embedding cache folder of a hosted embedder (see `EmbeddingCache`): texts whose vectors it
   * holds are not sent again, and every batch embedded is added to it as soon as it returns. None
   * when absent. The local embedder is not cached: it is fitted anew by every ingest, so its
   * vectors change with any change to the bundle.
   */
  readonly embeddingCache?: string;
  /** Batch size, concurrency and retries of a hosted embedder. */
  readonly remoteEmbedding?: RemoteEmbeddingOptions;
  /** Called once the nodes are embedded: cache hits and misses, calls, retries (hosted embedders). */
  readonly onEmbedded?: (stats: EmbeddingStats) => void;
  /** Called before a failed embedding call is retried. */
  readonly onEmbeddingRetry?: (error: unknown, delayMs: number) => void;
  readonly abortSignal?: AbortSignal;
}

/** Paths in the manifest are relative to the store directory. */
/** Where the fitted local embedder is kept (relative to the store; updates reuse it). */
export const localEmbedderPath = 'index/embedder';
/** Nodes per batch for the local embedder's worker threads (hosted embedders: `batchSize`). */
const embedBatch = 256;

/**
 * Builds the text and vector indexes of a store: fits the local embedder on the nodes (or uses the
 * named provider), embeds every node, writes one LanceDB table with a BM25 index over name + aliases
 * + text and an ANN index over the embeddings.
 */
export async function buildIndexes(options: BuildIndexesOptions): Promise<IndexManifest | undefined> {
  const spec = options.embedder.trim() || 'local';
  const parsed = parseEmbedderSpec(spec);
  const storeDirectory = path.dirname(options.directory);
  const backend = await resolveIndexBackend(
    options.indexBackend ?? defaultIndexBackend,
    options.indexBackends,
  );
  let model: EmbeddingModelV4;
  let cache: EmbeddingCache | undefined;
  let cached: CachedEmbedder | undefined;
  if (parsed.kind === 'local') {
    options.onProgress?.('fit-embedder', 0, options.nodeCount);
    // Fitted on a worker thread: this thread meanwhile builds the relation text and the graph.
    const local = await LocalEmbeddingModel.fitOnWorker(async function* () {
      for await (const node of options.nodes()) yield embeddingText(node);
    });
    await local.save(path.join(storeDirectory, localEmbedderPath));
    options.onProgress?.('fit-embedder', options.nodeCount, options.nodeCount);
    model = local;
  } else {
    model = await createEmbeddingModel(parsed);
    cache =
      options.embeddingCache === undefined ? undefined : await EmbeddingCache.open(options.embeddingCache);
    cached = new CachedEmbedder(model, {
      ...options.remoteEmbedding,
      namespace: remoteEmbedderNamespace(spec, model),
      ...(cache ? { cache } : {}),
      ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
      ...(options.onEmbeddingRetry ? { onRetry: options.onEmbeddingRetry } : {}),
    });
  }
  try {
    return await writeIndexes(options, spec, storeDirectory, backend, model, cached);
  } finally {
    cache?.close();
  }
}

async function writeIndexes(
  options: BuildIndexesOptions,
  spec: string,
  storeDirectory: string,
  backend: IndexBackendV1,
  model: EmbeddingModelV4,
  cached: CachedEmbedder | undefined,
): Promise<IndexManifest | undefined> {
  const relations = await options.relations;
  const batches = embeddedBatches(options.nodes(), model, relations, cached);
  const first = await batches.next();
  const dimensions = first.done
    ? model instanceof LocalEmbeddingModel
      ? model.dimensions
      : 0
    : firstDimensions(first.value);
  let embedded = 0;
  async function* records(): AsyncGenerator<IndexNodeRecord> {
    if (first.done) return;
    for (let batch: IteratorResult<IndexNodeRecord[]> = first; !batch.done; batch = await batches.next()) {
      yield* batch.value;
      embedded += batch.value.length;
      options.onProgress?.('embed', embedded, options.nodeCount);
    }
  }
  const relationFields = relations !== undefined;
  const written = await backend.build({
    directory: storeDirectory,
    ...(options.location !== undefined ? { target: options.location } : {}),
    ...(options.storageOptions ? { storageOptions: options.storageOptions } : {}),
    nodes: records(),
    relationFields,
    vectorDimensions: dimensions,
    onProgress: (phase, done) => options.onProgress?.(phase, done, options.nodeCount),
  });
  if (cached) options.onEmbedded?.(cached.statistics);
  const storage = recordableStorageOptions(backend, options.storageOptions);
  return {
    text: { provider: backend.id, path: written.location, fields: written.fields },
    ...(dimensions > 0
      ? {
          vector: {
            provider: backend.id,
            path: written.location,
            embedder: embedderId(model),
            dimensions,
            embedderSpec: spec,
            annIndex: written.annIndex ?? 'flat',
          },
        }
      : {}),
    ...(storage ? { storage } : {}),
  };
}

/**
 * What a node's embedding is made of: its document, cut after `embeddingCharacters`. The cut bounds
 * ingest time on KBs of long documents (embedding is most of it, and grows with length) and costs
 * little: a document's first sentences say most of what an LSA vector can hold. BM25 still indexes
 * the whole document.
 */
export function embeddingText(node: SkbNode): string {
  const document = nodeDocument(node);
  return document.length > embeddingCharacters ? document.slice(0, embeddingCharacters) : document;
}

const embeddingCharacters = 400;

/** A node's document: name, aliases and text, as the index backends (LanceDB's `nodeDocument`) rank it. */
function nodeDocument(node: SkbNode): string {
  return [node.name, ...(node.aliases ?? []), node.text].filter((part) => part.length > 0).join(' ; ');
}

function firstDimensions(batch: readonly IndexNodeRecord[]): number {
  return batch[0]?.vector?.length ?? 0;
}

/**
 * Nodes with their embeddings, in batches, in order. The local embedder runs on worker threads with
 * a batch per thread in flight (embedding is most of an ingest's time); a hosted embedder is called
 * through `CachedEmbedder` (the cache first, then `concurrency` calls in flight, retried).
 */
async function* embeddedBatches(
  nodes: AsyncIterable<SkbNode>,
  model: EmbeddingModelV4,
  relations: RelationText | undefined,
  cached: CachedEmbedder | undefined,
): AsyncGenerator<IndexNodeRecord[]> {
  const workers = model instanceof LocalEmbeddingModel ? new EmbeddingWorkers(model) : undefined;
  const embed = (texts: readonly string[]) =>
    workers ? workers.embed(texts) : cached ? cached.embed(texts) : embedTexts(model, texts);
  // A hosted embedder: a batch per call, `concurrency` of them in flight.
  const batchSize = cached ? cached.batchSize : embedBatch;
  const ahead = workers ? workers.threads : cached ? cached.concurrency - 1 : 0;
  const inFlight: Promise<IndexNodeRecord[]>[] = [];
  const start = (batch: SkbNode[]) => {
    const embedded = run(batch);
    // Awaited in order; one that fails while an earlier one is awaited must not go unhandled.
    embedded.catch(() => {});
    return embedded;
  };
  const run = (batch: SkbNode[]) =>
    embed(batch.map((node) => embeddingText(node))).then((vectors) =>
      batch.map((node, i) => ({
        id: node.id,
        type: node.type,
        name: node.name,
        ...(node.aliases ? { aliases: node.aliases } : {}),
        text: node.text,
        ...(relations ? { relations: relations.text(node.id) } : {}),
        vector: vectors[i]!,
      })),
    );
  try {
    let pending: SkbNode[] = [];
    for await (const node of nodes) {
      pending.push(node);
      if (pending.length < batchSize) continue;
      inFlight.push(start(pending));
      pending = [];
      if (inFlight.length > ahead) yield await inFlight.shift()!;
    }
    if (pending.length > 0) inFlight.push(start(pending));
    while (inFlight.length > 0) yield await inFlight.shift()!;
  } finally {
    await workers?.close();
  }
}

/** Opens what `buildIndexes` built; `queryEmbedder` overrides the recorded embedder (and must match it). */
export async function openIndexes(
  storeDirectory: string,
  indexes: IndexManifest | undefined,
  options: {
    readonly queryEmbedder?: string;
    /** Over the manifest's recorded ones; credentials otherwise come from the environment (`AWS_…`). */
    readonly storageOptions?: IndexStorageOptions;
    readonly indexBackends?: readonly IndexBackendV1[];
  } = {},
): Promise<OpenedIndexes> {
  if (!indexes) {
    throw new WeftError({
      code: 'WEFT_UNSUPPORTED',
      message: 'the store has no text/vector indexes; re-run weft ingest',
    });
  }
  const recordedSpec = indexes.vector
    ? (indexes.vector.embedderSpec ?? specOfId(indexes.vector.embedder))
    : undefined;
  if (options.queryEmbedder !== undefined && indexes.vector) {
    const asked = parseEmbedderSpec(options.queryEmbedder);
    if (JSON.stringify(asked) !== JSON.stringify(parseEmbedderSpec(recordedSpec ?? 'local'))) {
      throw new WeftError({
        code: 'WEFT_EMBEDDER_MISMATCH',
        message: `the store's vectors were made by "${recordedSpec}" (${indexes.vector.embedder}); queries cannot use "${options.queryEmbedder}". Re-run weft ingest --embedder ${options.queryEmbedder}, or drop --embedder`,
        details: { index: indexes.vector.embedder, query: options.queryEmbedder },
      });
    }
  }
  const backend = await resolveIndexBackend(indexes.text.provider, options.indexBackends);
  const storageOptions = { ...indexes.storage, ...options.storageOptions };
  const opened = await backend.open(indexes.text.path, {
    baseDirectory: storeDirectory,
    ...(Object.keys(storageOptions).length > 0 ? { storageOptions } : {}),
    ...(indexes.vector ? { embedderId: indexes.vector.embedder } : {}),
  });
  try {
    if (!opened.vector) return { text: opened.text, close: () => opened.close() };
    // The local embedder is read at the first query that embeds (bm25 never does).
    const model = await createEmbeddingModel(options.queryEmbedder ?? recordedSpec ?? 'local', {
      localDirectory: path.join(storeDirectory, localEmbedderPath),
      ...(indexes.vector ? { localDimensions: indexes.vector.dimensions } : {}),
    });
    assertEmbedderMatches(opened.vector, model);
    return { text: opened.text, vector: opened.vector, embeddingModel: model, close: () => opened.close() };
  } catch (error) {
    await opened.close();
    throw error;
  }
}

/** Stores written before `embedderSpec` was recorded: `local:…` ids mean the local embedder. */
function specOfId(id: string): string {
  return id.startsWith('local:') ? 'local' : id;
}
