/** Which features a document yields: its words and the character n-grams of each word. */
export interface TextFeatureOptions {
  /** Character n-gram sizes taken inside each word padded with `^`/`$`, e.g. `[4]`; `[]` = words only. */
  readonly charNgrams: readonly number[];
  /** Drop common English function words (and their n-grams) before anything else. */
  readonly stopWords?: boolean;
}

/** A short English function-word list: words that carry no topic and only blur LSA directions. */
export const englishStopWords: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below ' +
    'between both but by can could did do does doing down during each few for from further had has have ' +
    'having he her here hers herself him himself his how i if in into is it its itself just me more most ' +
    'my myself no nor not now of off on once only or other our ours ourselves out over own same she should ' +
    'so some such than that the their theirs them themselves then there these they this those through to ' +
    'too under until up very was we were what when where which while who whom why will with would you ' +
    'your yours yourself yourselves'
  ).split(' '),
);

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
  const all =
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  const words = options.stopWords ? all.filter((w) => !englishStopWords.has(w)) : all;
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
