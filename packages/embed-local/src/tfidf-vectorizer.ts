import { type TextFeatureOptions, textFeatures } from './text-features.ts';

export interface TfidfOptions extends TextFeatureOptions {
  /** Features seen in fewer documents are dropped (they cannot relate two documents). */
  readonly minDocumentFrequency: number;
  /** Most frequent words kept (by document frequency). */
  readonly maxWords: number;
  /** Most frequent character n-grams kept. */
  readonly maxNgrams: number;
  /** Weight of the n-gram block relative to the word block (each block is L2-normalised first). */
  readonly ngramWeight: number;
}

/** A sparse row: feature indices and their weights. */
export interface SparseVector {
  readonly indices: Int32Array;
  readonly values: Float32Array;
}

/** The fitted state, as persisted. */
export interface TfidfState {
  readonly options: TfidfOptions;
  readonly words: readonly string[];
  readonly wordIdf: readonly number[];
  readonly ngrams: readonly string[];
  readonly ngramIdf: readonly number[];
}

/**
 * Sublinear TF-IDF (`(1 + ln tf) · idf`, smooth idf) over words and character n-grams, each block
 * L2-normalised, the n-gram block weighted, the whole row L2-normalised.
 */
export class TfidfVectorizer {
  readonly state: TfidfState;
  private readonly wordIndex: Map<string, number>;
  private readonly ngramIndex: Map<string, number>;

  constructor(state: TfidfState) {
    this.state = state;
    this.wordIndex = new Map(state.words.map((w, i) => [w, i]));
    this.ngramIndex = new Map(state.ngrams.map((g, i) => [g, i]));
  }

  /** Number of features (columns): words first, then n-grams. */
  get size(): number {
    return this.state.words.length + this.state.ngrams.length;
  }

  /** Counts document frequencies over `documents` and keeps the most frequent features. */
  static async fit(
    documents: AsyncIterable<string> | Iterable<string>,
    options: TfidfOptions,
  ): Promise<TfidfVectorizer> {
    const wordDf = new Map<string, number>();
    const ngramDf = new Map<string, number>();
    let count = 0;
    for await (const document of documents) {
      count++;
      const { words, ngrams } = textFeatures(document, options);
      for (const word of new Set(words)) wordDf.set(word, (wordDf.get(word) ?? 0) + 1);
      for (const ngram of new Set(ngrams)) ngramDf.set(ngram, (ngramDf.get(ngram) ?? 0) + 1);
    }
    const pick = (df: Map<string, number>, max: number) => {
      const kept = [...df].filter(([, n]) => n >= options.minDocumentFrequency);
      // Ties broken by the term itself so that fitting is deterministic.
      kept.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      const top = kept.slice(0, max);
      return { terms: top.map(([t]) => t), idf: top.map(([, n]) => Math.log((1 + count) / (1 + n)) + 1) };
    };
    const words = pick(wordDf, options.maxWords);
    const ngrams = pick(ngramDf, options.maxNgrams);
    return new TfidfVectorizer({
      options,
      words: words.terms,
      wordIdf: words.idf,
      ngrams: ngrams.terms,
      ngramIdf: ngrams.idf,
    });
  }

  /** The TF-IDF row of one text; empty when no feature is known. */
  transform(text: string): SparseVector {
    const { words, ngrams } = textFeatures(text, this.state.options);
    const wordCounts = countKnown(words, this.wordIndex);
    const ngramCounts = countKnown(ngrams, this.ngramIndex);
    const indices = new Int32Array(wordCounts.size + ngramCounts.size);
    const values = new Float32Array(indices.length);
    let k = 0;
    const block = (counts: Map<number, number>, idf: readonly number[], offset: number, weight: number) => {
      const start = k;
      let norm = 0;
      for (const [index, tf] of counts) {
        const value = (1 + Math.log(tf)) * idf[index]!;
        indices[k] = offset + index;
        values[k] = value;
        norm += value * value;
        k++;
      }
      const scale = norm > 0 ? weight / Math.sqrt(norm) : 0;
      for (let i = start; i < k; i++) values[i] = values[i]! * scale;
    };
    block(wordCounts, this.state.wordIdf, 0, 1);
    block(ngramCounts, this.state.ngramIdf, this.state.words.length, this.state.options.ngramWeight);
    let norm = 0;
    for (const v of values) norm += v * v;
    if (norm > 0) {
      const scale = 1 / Math.sqrt(norm);
      for (let i = 0; i < values.length; i++) values[i] = values[i]! * scale;
    }
    return { indices, values };
  }
}

function countKnown(terms: readonly string[], index: ReadonlyMap<string, number>): Map<number, number> {
  const counts = new Map<number, number>();
  for (const term of terms) {
    const i = index.get(term);
    if (i !== undefined) counts.set(i, (counts.get(i) ?? 0) + 1);
  }
  return counts;
}
