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
import {
  type LanceNodeRecord,
  LanceTextIndex,
  LanceVectorIndex,
  nodeDocument,
  type TextFieldName,
  textFieldDescriptions,
  writeLanceNodes,
} from '@weft/index-lancedb';
import type { SkbNode, SkbSchema, TextIndexV1, TextIndexV2, VectorIndexV1 } from '@weft/spec';
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
}

/** Paths in the manifest are relative to the store directory. */
const lancePath = 'index/lance';
/** Where the fitted local embedder is kept (relative to the store; updates reuse it). */
export const localEmbedderPath = 'index/embedder';
/** Texts per `embedMany` call for hosted embedders (the provider splits further if it must). */
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
  let model: EmbeddingModelV4;
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
  }

  const relations = await options.relations;
  const batches = embeddedBatches(options.nodes(), model, relations);
  const first = await batches.next();
  const dimensions = first.done
    ? model instanceof LocalEmbeddingModel
      ? model.dimensions
      : 0
    : firstDimensions(first.value);
  let embedded = 0;
  async function* records(): AsyncGenerator<LanceNodeRecord> {
    if (first.done) return;
    for (let batch: IteratorResult<LanceNodeRecord[]> = first; !batch.done; batch = await batches.next()) {
      yield* batch.value;
      embedded += batch.value.length;
      options.onProgress?.('embed', embedded, options.nodeCount);
    }
  }
  const relationFields = relations !== undefined;
  const written = await writeLanceNodes({
    directory: path.join(storeDirectory, lancePath),
    nodes: records(),
    relationFields,
    ...(dimensions > 0 ? { vectorColumns: [{ name: 'vector', dimensions }] } : {}),
    onProgress: (phase, done) => options.onProgress?.(phase, done, options.nodeCount),
  });
  const fields = (relationFields ? ['document', 'relations', 'combined'] : ['document']) as TextFieldName[];
  return {
    text: {
      provider: 'lancedb',
      path: lancePath,
      fields: fields.map((name) => ({ name, description: textFieldDescriptions[name] })),
    },
    ...(dimensions > 0
      ? {
          vector: {
            provider: 'lancedb',
            path: lancePath,
            embedder: embedderId(model),
            dimensions,
            embedderSpec: spec,
            annIndex: written.vectorIndexes.vector ?? 'flat',
          },
        }
      : {}),
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

function firstDimensions(batch: readonly LanceNodeRecord[]): number {
  return batch[0]?.vectors?.vector?.length ?? 0;
}

/**
 * Nodes with their embeddings, in batches, in order. The local embedder runs on worker threads with
 * a batch per thread in flight (embedding is most of an ingest's time); other embedders are called
 * one batch at a time through the AI SDK.
 */
async function* embeddedBatches(
  nodes: AsyncIterable<SkbNode>,
  model: EmbeddingModelV4,
  relations: RelationText | undefined,
): AsyncGenerator<LanceNodeRecord[]> {
  const workers = model instanceof LocalEmbeddingModel ? new EmbeddingWorkers(model) : undefined;
  const embed = (texts: readonly string[]) => (workers ? workers.embed(texts) : embedTexts(model, texts));
  const inFlight: Promise<LanceNodeRecord[]>[] = [];
  const start = (batch: SkbNode[]) =>
    embed(batch.map((node) => embeddingText(node))).then((vectors) =>
      batch.map((node, i) => ({
        id: node.id,
        type: node.type,
        name: node.name,
        ...(node.aliases ? { aliases: node.aliases } : {}),
        text: node.text,
        ...(relations ? { relations: relations.text(node.id) } : {}),
        vectors: { vector: vectors[i]! },
      })),
    );
  try {
    let pending: SkbNode[] = [];
    for await (const node of nodes) {
      pending.push(node);
      if (pending.length < embedBatch) continue;
      inFlight.push(start(pending));
      pending = [];
      if (inFlight.length > (workers?.threads ?? 0)) yield await inFlight.shift()!;
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
  options: { readonly queryEmbedder?: string } = {},
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
  const text: TextIndexV1 | TextIndexV2 = await LanceTextIndex.open(
    path.join(storeDirectory, indexes.text.path),
  );
  let vector: VectorIndexV1 | undefined;
  try {
    if (!indexes.vector) return { text, close: () => text.close() };
    const model = await createEmbeddingModel(options.queryEmbedder ?? recordedSpec ?? 'local', {
      localDirectory: path.join(storeDirectory, localEmbedderPath),
    });
    vector = await LanceVectorIndex.open(path.join(storeDirectory, indexes.vector.path), {
      embedderId: indexes.vector.embedder,
    });
    assertEmbedderMatches(vector, model);
    const opened = vector;
    return {
      text,
      vector: opened,
      embeddingModel: model,
      close: async () => {
        await Promise.all([text.close(), opened.close()]);
      },
    };
  } catch (error) {
    await Promise.all([text.close(), vector?.close()]);
    throw error;
  }
}

/** Stores written before `embedderSpec` was recorded: `local:…` ids mean the local embedder. */
function specOfId(id: string): string {
  return id.startsWith('local:') ? 'local' : id;
}
