import { contentWords } from '@weft/grounding';
import { stem } from 'porter2';

/** Lower-cased content words, stemmed: what the in-memory index matches on. */
export function analyse(text: string): string[] {
  return contentWords(text).map((word) => stem(word));
}

/**
 * BM25 over a handful of short texts built per query (MixRAG's verbalised triples): small enough
 * to index in memory for each retrieval, with the usual k1 = 1.2, b = 0.75.
 */
export class VerbalisedBm25 {
  private readonly documents: readonly (readonly string[])[];
  private readonly frequency = new Map<string, number>();
  private readonly averageLength: number;

  constructor(texts: readonly string[]) {
    this.documents = texts.map(analyse);
    for (const terms of this.documents)
      for (const term of new Set(terms)) this.frequency.set(term, (this.frequency.get(term) ?? 0) + 1);
    this.averageLength =
      this.documents.reduce((s, d) => s + d.length, 0) / Math.max(1, this.documents.length);
  }

  /** One score per text, in order (0 where no query term occurs). */
  score(query: string): number[] {
    const terms = [...new Set(analyse(query))];
    const n = this.documents.length;
    const k1 = 1.2;
    const b = 0.75;
    const idf = new Map(
      terms.map((term) => {
        const df = this.frequency.get(term) ?? 0;
        return [term, Math.log(1 + (n - df + 0.5) / (df + 0.5))];
      }),
    );
    return this.documents.map((terms_) => {
      if (terms_.length === 0) return 0;
      const counts = new Map<string, number>();
      for (const t of terms_) counts.set(t, (counts.get(t) ?? 0) + 1);
      let score = 0;
      for (const term of terms) {
        const tf = counts.get(term) ?? 0;
        if (tf === 0) continue;
        score +=
          (idf.get(term)! * tf * (k1 + 1)) /
          (tf + k1 * (1 - b + (b * terms_.length) / Math.max(1e-9, this.averageLength)));
      }
      return score;
    });
  }
}
