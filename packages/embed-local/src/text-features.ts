/** Which features a document yields: its words and the character n-grams of each word. */
export interface TextFeatureOptions {
  /** Character n-gram sizes taken inside each word padded with `^`/`$`, e.g. `[4]`; `[]` = words only. */
  readonly charNgrams: readonly number[];
}

export interface TextFeatures {
  readonly words: string[];
  readonly ngrams: string[];
}

/**
 * Splits text into lower-cased, NFKC-normalised words (runs of letters/digits; anything else is a separator,
 * so no input can break it) and the character n-grams of those words, which let `dogs` meet `dog` and
 * misspellings meet their words without a stemmer.
 */
export function textFeatures(text: string, options: TextFeatureOptions): TextFeatures {
  const words =
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  const ngrams: string[] = [];
  if (options.charNgrams.length > 0) {
    for (const word of words) {
      const padded = `^${word}$`;
      for (const n of options.charNgrams) {
        if (padded.length <= n) {
          ngrams.push(padded);
          continue;
        }
        for (let i = 0; i + n <= padded.length; i++) ngrams.push(padded.slice(i, i + n));
      }
    }
  }
  return { words, ngrams };
}
