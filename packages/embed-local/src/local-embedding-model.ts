import { once } from 'node:events';
import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type {
  EmbeddingModelV4,
  EmbeddingModelV4CallOptions,
  EmbeddingModelV4Result,
  SharedV4Warning,
} from '@ai-sdk/provider';
import { seededRandom, WeftError } from '@weft/kit';
import { projectSparse } from './project-sparse.ts';
import { randomizedSvd, toCsr } from './randomized-svd.ts';
import { type TfidfOptions, type TfidfState, TfidfVectorizer } from './tfidf-vectorizer.ts';

export interface LocalEmbedderOptions extends Partial<TfidfOptions> {
  /** Embedding size (the LSA rank). */
  readonly dimensions?: number;
  /** Power iterations of the randomized range finder: more = closer to the exact truncated SVD, slower. */
  readonly powerIterations?: number;
  /** Extra directions carried through the range finder and dropped at the end. */
  readonly oversample?: number;
  /**
   * Each LSA coordinate is scaled by its singular value to this power before normalising: 1 = the
   * classic U·Σ document vectors, 0 = whitened (every direction counts the same), 0.5 in between.
   */
  readonly singularValuePower?: number;
  /**
   * Vocabulary, IDF and the SVD are fitted on a seeded uniform sample of at most this many documents
   * (reservoir sampling, one pass), so fitting time and memory are bounded whatever the corpus size.
   */
  readonly maxFitDocuments?: number;
  readonly seed?: number;
}

export const defaultLocalEmbedderOptions = {
  dimensions: 256,
  charNgrams: [4],
  minDocumentFrequency: 2,
  maxWords: 40_000,
  maxNgrams: 20_000,
  ngramWeight: 0.5,
  // Tuned on WordNet val splits (see README): whitened coordinates (p = 0), no power iteration and
  // stop words dropped keep far more of the rare-word signal that needle queries need.
  stopWords: true,
  powerIterations: 0,
  oversample: 10,
  singularValuePower: 0,
  maxFitDocuments: 20_000,
  seed: 42,
} as const satisfies Required<LocalEmbedderOptions>;

const stateFile = 'local-embedder.json';
const projectionFile = 'local-embedder.f32';

/** A fitted local embedder as it is saved (and sent between threads). */
export interface PersistedState {
  readonly format: 'weft-local-embedder/1';
  readonly dimensions: number;
  readonly tfidf: TfidfState;
  readonly fit: {
    /** Documents the model was fitted on (the sample), and how many were seen. */
    readonly documents: number;
    readonly seenDocuments?: number;
    readonly powerIterations: number;
    readonly singularValuePower?: number;
    readonly seed: number;
  };
}

/**
 * An AI SDK embedding model fitted on the knowledge base's own text: sublinear TF-IDF over words and
 * character n-grams, projected onto the corpus's dominant LSA subspace (randomized truncated SVD),
 * L2-normalised. Deterministic, offline, no weights to download. Use it through `embed`/`embedMany`
 * from `ai` like any hosted model.
 */
export class LocalEmbeddingModel implements EmbeddingModelV4 {
  readonly specificationVersion = 'v4';
  readonly provider = 'local';
  readonly modelId: string;
  readonly maxEmbeddingsPerCall = maxEmbeddingsPerCall;
  readonly supportsParallelCalls = true;
  readonly dimensions: number;
  private readonly vectorizer: TfidfVectorizer;
  /** features × dimensions, row-major. */
  private readonly projection: Float32Array;
  private readonly fitInfo: PersistedState['fit'];

  private constructor(
    vectorizer: TfidfVectorizer,
    projection: Float32Array,
    dimensions: number,
    fit: PersistedState['fit'],
  ) {
    this.vectorizer = vectorizer;
    this.projection = projection;
    this.dimensions = dimensions;
    this.modelId = localModelId(dimensions);
    this.fitInfo = fit;
  }

  /**
   * Fits the model on `documents` (iterated once; each is one node's name, aliases and text): a seeded
   * sample of at most `maxFitDocuments` of them gives the vocabulary, the IDF and the SVD. Embedding
   * the whole corpus is then `embedOne` per document, streamed by the caller.
   */
  static async fit(
    documents: () => AsyncIterable<string> | Iterable<string>,
    options: LocalEmbedderOptions = {},
  ): Promise<LocalEmbeddingModel> {
    const o = { ...defaultLocalEmbedderOptions, ...options };
    const { sample, seen } = await reservoirSample(documents(), o.maxFitDocuments, o.seed);
    return LocalEmbeddingModel.fitSample(sample, seen, options);
  }

  /**
   * `fit` with the fitting (TF-IDF and the SVD, seconds of CPU on a large KB) on a worker thread: the
   * caller's thread stays free, e.g. for the graph build and the relation text of an ingest. Only
   * the sample is drawn here. The same model as `fit`.
   */
  static async fitOnWorker(
    documents: () => AsyncIterable<string> | Iterable<string>,
    options: LocalEmbedderOptions = {},
  ): Promise<LocalEmbeddingModel> {
    const o = { ...defaultLocalEmbedderOptions, ...options };
    const { sample, seen } = await reservoirSample(documents(), o.maxFitDocuments, o.seed);
    const file = new URL(
      import.meta.url.endsWith('.ts') ? './fit-worker.ts' : './fit-worker.js',
      import.meta.url,
    );
    const worker = new Worker(file, { workerData: { sample, seen, options } });
    try {
      const [message] = (await once(worker, 'message')) as [
        | { ok: true; state: PersistedState; projection: SharedArrayBuffer }
        | { ok: false; error: string; code?: string },
      ];
      if (!message.ok) {
        throw new WeftError({
          code: message.code === 'WEFT_BAD_INPUT' ? 'WEFT_BAD_INPUT' : 'WEFT_STAGE_FAILED',
          message: message.error,
        });
      }
      return LocalEmbeddingModel.fromParts(message.state, new Float32Array(message.projection));
    } finally {
      await worker.terminate();
    }
  }

  /** What `fitOnWorker` sends back across threads. */
  get parts(): { readonly state: PersistedState; readonly projection: SharedArrayBuffer } {
    return {
      state: {
        format: 'weft-local-embedder/1',
        dimensions: this.dimensions,
        tfidf: this.vectorizer.state,
        fit: this.fitInfo,
      },
      projection: this.projection.buffer as SharedArrayBuffer,
    };
  }

  private static fromParts(state: PersistedState, projection: Float32Array): LocalEmbeddingModel {
    return new LocalEmbeddingModel(new TfidfVectorizer(state.tfidf), projection, state.dimensions, state.fit);
  }

  /** Fits on an already drawn sample of `seen` documents (see `fit`). */
  static async fitSample(
    sample: readonly string[],
    seen: number,
    options: LocalEmbedderOptions = {},
  ): Promise<LocalEmbeddingModel> {
    const o = { ...defaultLocalEmbedderOptions, ...options };
    if (sample.length === 0) {
      throw new WeftError({
        code: 'WEFT_BAD_INPUT',
        message: 'cannot fit the local embedder on an empty knowledge base',
      });
    }
    const vectorizer = await TfidfVectorizer.fit(sample, {
      charNgrams: o.charNgrams,
      stopWords: o.stopWords,
      minDocumentFrequency: o.minDocumentFrequency,
      maxWords: o.maxWords,
      maxNgrams: o.maxNgrams,
      ngramWeight: o.ngramWeight,
    });
    const rows = sample.map((document) => vectorizer.transform(document));
    const svd = randomizedSvd(toCsr(rows, vectorizer.size), o.dimensions, {
      powerIterations: o.powerIterations,
      oversample: o.oversample,
      seed: o.seed,
    });
    // Fold Σ^(p−1) into the projection: x·V·Σ^(p−1) = the document's U·Σ^p row (fold-in for queries).
    const k = svd.rank;
    const top = svd.singularValues[0] ?? 0;
    const scale = Array.from(svd.singularValues, (s) =>
      s > top * 1e-6 ? s ** (o.singularValuePower - 1) : 0,
    );
    const projection = sharedFloats(vectorizer.size * o.dimensions);
    for (let c = 0; c < vectorizer.size; c++) {
      for (let j = 0; j < k; j++) projection[c * o.dimensions + j] = svd.vectors[c * k + j]! * scale[j]!;
    }
    return new LocalEmbeddingModel(vectorizer, projection, o.dimensions, {
      documents: sample.length,
      seenDocuments: seen,
      powerIterations: o.powerIterations,
      singularValuePower: o.singularValuePower,
      seed: o.seed,
    });
  }

  /** Loads a model written by `save` from `directory`. */
  static async load(directory: string): Promise<LocalEmbeddingModel> {
    const state = await readSavedState(directory);
    let bytes: Buffer;
    try {
      bytes = await readFile(savedModelFiles(directory).projection);
    } catch (error) {
      throw notFound(directory, error);
    }
    const vectorizer = new TfidfVectorizer(state.tfidf);
    const projection = sharedFloats(bytes.byteLength / 4);
    new Uint8Array(projection.buffer).set(bytes);
    if (projection.length !== vectorizer.size * state.dimensions) {
      throw new WeftError({
        code: 'WEFT_STORE_FAILED',
        message: `local embedder in ${directory} is truncated`,
      });
    }
    return new LocalEmbeddingModel(vectorizer, projection, state.dimensions, state.fit);
  }

  /** Writes the fitted model (vocabulary + IDF as JSON, projection as little-endian float32). */
  async save(directory: string): Promise<void> {
    await mkdir(directory, { recursive: true });
    const state: PersistedState = {
      format: 'weft-local-embedder/1',
      dimensions: this.dimensions,
      tfidf: this.vectorizer.state,
      fit: this.fitInfo,
    };
    const files = savedModelFiles(directory);
    await writeFile(files.state, JSON.stringify(state));
    await writeFile(
      files.projection,
      new Uint8Array(this.projection.buffer, this.projection.byteOffset, this.projection.byteLength),
    );
  }

  /** The unit-length embedding of one text; all zeros when it has no known word or n-gram. */
  embedOne(text: string): Float32Array {
    return projectSparse(this.vectorizer.transform(text), this.projection, this.dimensions);
  }

  /**
   * What a worker thread needs to embed as this model does (see `EmbeddingWorkers`): the vectorizer
   * state and the projection, which lives in shared memory and is not copied.
   */
  get workerData(): {
    readonly state: TfidfState;
    readonly projection: SharedArrayBuffer;
    readonly dimensions: number;
  } {
    return {
      state: this.vectorizer.state,
      projection: this.projection.buffer as SharedArrayBuffer,
      dimensions: this.dimensions,
    };
  }

  async doEmbed(options: EmbeddingModelV4CallOptions): Promise<EmbeddingModelV4Result> {
    return embedValues(options, this.dimensions, (text) => this.embedOne(text));
  }
}

/** `doEmbed` of a local model whose embedding of one text is `embedOne`. */
export function embedValues(
  options: EmbeddingModelV4CallOptions,
  dimensions: number,
  embedOne: (text: string) => Float32Array,
): EmbeddingModelV4Result {
  const warnings: SharedV4Warning[] = [];
  if (options.dimensions !== undefined && options.dimensions !== dimensions) {
    warnings.push({
      type: 'unsupported',
      feature: 'dimensions',
      details: `this model always returns ${dimensions}`,
    });
  }
  const embeddings: number[][] = [];
  for (const value of options.values) {
    if (options.abortSignal?.aborted)
      throw new WeftError({ code: 'WEFT_ABORTED', message: 'embedding aborted' });
    embeddings.push(Array.from(embedOne(value)));
  }
  return { embeddings, warnings };
}

export const maxEmbeddingsPerCall = 4096;

/** The model id of a local embedder of `dimensions` (a store's manifest records it). */
export function localModelId(dimensions: number): string {
  return `tfidf-lsa-${dimensions}`;
}

function notFound(directory: string, cause: unknown): WeftError {
  return new WeftError({ code: 'WEFT_NOT_FOUND', message: `no local embedder in ${directory}`, cause });
}

/** The saved model's files in `directory`: its state (JSON) and its projection (float32). */
export function savedModelFiles(directory: string): { readonly state: string; readonly projection: string } {
  return { state: path.join(directory, stateFile), projection: path.join(directory, projectionFile) };
}

/** The state `save` wrote in `directory`, its format checked. */
export async function readSavedState(directory: string): Promise<PersistedState> {
  let state: PersistedState;
  try {
    state = JSON.parse(await readFile(savedModelFiles(directory).state, 'utf8')) as PersistedState;
  } catch (error) {
    throw notFound(directory, error);
  }
  if (state.format !== 'weft-local-embedder/1') {
    throw new WeftError({
      code: 'WEFT_UNSUPPORTED',
      message: `unknown local embedder format ${String(state.format)}`,
    });
  }
  return state;
}

/** That `save` wrote both files in `directory`, without reading them. */
export async function assertSavedModel(directory: string): Promise<void> {
  try {
    const files = savedModelFiles(directory);
    await Promise.all([access(files.state), access(files.projection)]);
  } catch (error) {
    throw notFound(directory, error);
  }
}

/** Float32s in shared memory, so worker threads read the projection without a copy. */
function sharedFloats(length: number): Float32Array {
  return new Float32Array(new SharedArrayBuffer(length * 4));
}

/** A uniform seeded sample of at most `size` documents (Algorithm R), in one pass. */
async function reservoirSample(
  documents: AsyncIterable<string> | Iterable<string>,
  size: number,
  seed: number,
): Promise<{ sample: string[]; seen: number }> {
  const next = seededRandom(seed ^ 0x5eed);
  const sample: string[] = [];
  let seen = 0;
  for await (const document of documents) {
    seen++;
    if (sample.length < size) sample.push(document);
    else {
      const j = Math.floor(next() * seen);
      if (j < size) sample[j] = document;
    }
  }
  return { sample, seen };
}
