import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type {
  EmbeddingModelV4,
  EmbeddingModelV4CallOptions,
  EmbeddingModelV4Result,
  SharedV4Warning,
} from '@ai-sdk/provider';
import { WeftError } from '@weft/core';
import { dominantRowSubspace, toCsr } from './randomized-subspace.ts';
import {
  type SparseVector,
  type TfidfOptions,
  type TfidfState,
  TfidfVectorizer,
} from './tfidf-vectorizer.ts';

export interface LocalEmbedderOptions extends Partial<TfidfOptions> {
  /** Embedding size (the LSA rank). */
  readonly dimensions?: number;
  /** Power iterations of the randomized range finder: more = closer to the exact truncated SVD, slower. */
  readonly powerIterations?: number;
  readonly seed?: number;
}

export const defaultLocalEmbedderOptions = {
  dimensions: 256,
  charNgrams: [4],
  minDocumentFrequency: 2,
  maxWords: 40_000,
  maxNgrams: 20_000,
  ngramWeight: 0.5,
  powerIterations: 1,
  seed: 42,
} as const satisfies Required<LocalEmbedderOptions>;

const stateFile = 'local-embedder.json';
const projectionFile = 'local-embedder.f32';

interface PersistedState {
  readonly format: 'weft-local-embedder/1';
  readonly dimensions: number;
  readonly tfidf: TfidfState;
  readonly fit: { readonly documents: number; readonly powerIterations: number; readonly seed: number };
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
  readonly maxEmbeddingsPerCall = 4096;
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
    this.modelId = `tfidf-lsa-${dimensions}`;
    this.fitInfo = fit;
  }

  /**
   * Fits the model on `documents`, which is iterated twice (vocabulary, then the TF-IDF matrix).
   * Each document is one node's name, aliases and text.
   */
  static async fit(
    documents: () => AsyncIterable<string> | Iterable<string>,
    options: LocalEmbedderOptions = {},
  ): Promise<LocalEmbeddingModel> {
    const o = { ...defaultLocalEmbedderOptions, ...options };
    const vectorizer = await TfidfVectorizer.fit(documents(), {
      charNgrams: o.charNgrams,
      minDocumentFrequency: o.minDocumentFrequency,
      maxWords: o.maxWords,
      maxNgrams: o.maxNgrams,
      ngramWeight: o.ngramWeight,
    });
    const rows: SparseVector[] = [];
    for await (const document of documents()) rows.push(vectorizer.transform(document));
    if (rows.length === 0) {
      throw new WeftError({
        code: 'WEFT_BAD_INPUT',
        message: 'cannot fit the local embedder on an empty knowledge base',
      });
    }
    const basis = dominantRowSubspace(toCsr(rows, vectorizer.size), o.dimensions, {
      powerIterations: o.powerIterations,
      seed: o.seed,
    });
    return new LocalEmbeddingModel(vectorizer, Float32Array.from(basis), o.dimensions, {
      documents: rows.length,
      powerIterations: o.powerIterations,
      seed: o.seed,
    });
  }

  /** Loads a model written by `save` from `directory`. */
  static async load(directory: string): Promise<LocalEmbeddingModel> {
    let state: PersistedState;
    let bytes: Buffer;
    try {
      state = JSON.parse(await readFile(path.join(directory, stateFile), 'utf8')) as PersistedState;
      bytes = await readFile(path.join(directory, projectionFile));
    } catch (error) {
      throw new WeftError({
        code: 'WEFT_NOT_FOUND',
        message: `no local embedder in ${directory}`,
        cause: error,
      });
    }
    if (state.format !== 'weft-local-embedder/1') {
      throw new WeftError({
        code: 'WEFT_UNSUPPORTED',
        message: `unknown local embedder format ${String(state.format)}`,
      });
    }
    const vectorizer = new TfidfVectorizer(state.tfidf);
    const projection = new Float32Array(
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
    );
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
    await writeFile(path.join(directory, stateFile), JSON.stringify(state));
    await writeFile(
      path.join(directory, projectionFile),
      new Uint8Array(this.projection.buffer, this.projection.byteOffset, this.projection.byteLength),
    );
  }

  /** The unit-length embedding of one text; all zeros when it has no known word or n-gram. */
  embedOne(text: string): Float32Array {
    const { indices, values } = this.vectorizer.transform(text);
    const d = this.dimensions;
    const out = new Float32Array(d);
    const acc = new Float64Array(d);
    for (let k = 0; k < indices.length; k++) {
      const base = indices[k]! * d;
      const v = values[k]!;
      for (let j = 0; j < d; j++) acc[j] = acc[j]! + v * this.projection[base + j]!;
    }
    let norm = 0;
    for (let j = 0; j < d; j++) norm += acc[j]! * acc[j]!;
    if (norm === 0) return out;
    const scale = 1 / Math.sqrt(norm);
    for (let j = 0; j < d; j++) out[j] = acc[j]! * scale;
    return out;
  }

  async doEmbed(options: EmbeddingModelV4CallOptions): Promise<EmbeddingModelV4Result> {
    const warnings: SharedV4Warning[] = [];
    if (options.dimensions !== undefined && options.dimensions !== this.dimensions) {
      warnings.push({
        type: 'unsupported',
        feature: 'dimensions',
        details: `this model always returns ${this.dimensions}`,
      });
    }
    const embeddings: number[][] = [];
    for (const value of options.values) {
      if (options.abortSignal?.aborted)
        throw new WeftError({ code: 'WEFT_ABORTED', message: 'embedding aborted' });
      embeddings.push(Array.from(this.embedOne(value)));
    }
    return { embeddings, warnings };
  }
}
