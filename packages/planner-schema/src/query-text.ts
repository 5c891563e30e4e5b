/** A word of the query with where it sits in the original text. */
export interface QueryWord {
  readonly text: string;
  readonly lower: string;
  readonly start: number;
  readonly end: number;
}

/** Function words of English: never anchors on their own, never restrictions. */
export const stopwords: ReadonlySet<string> = new Set(
  (
    'a an the of in on at to for from by with about as into onto over under and or nor but if then than so ' +
    'is are was were be been being am do does did has have had having it its this that these those there here ' +
    'which what who whom whose where when why how whoever whatever one ones some any each every all both either ' +
    'neither no not only very too also just such can could may might must shall should will would s t ' +
    'i you he she we they me him her us them my your his our their up down out off again once'
  ).split(' '),
);

/** Runs of letters and digits (any script), lower-cased, with their offsets. */
export function queryWords(query: string): QueryWord[] {
  const words: QueryWord[] = [];
  for (const match of query.matchAll(/[\p{L}\p{N}]+/gu)) {
    const start = match.index;
    words.push({ text: match[0], lower: match[0].toLowerCase(), start, end: start + match[0].length });
  }
  return words;
}

/** Lower-cased tokens, the same split as `queryWords`. */
export function tokens(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Singular guesses for an English plural (`cities` → `city`, `boxes` → `box`, `dogs` → `dog`). */
export function singularForms(word: string): string[] {
  const out: string[] = [];
  const lower = word.toLowerCase();
  if (lower.length <= 3) return out;
  if (lower.endsWith('ies')) out.push(`${word.slice(0, -3)}y`);
  if (/(ses|xes|zes|ches|shes)$/.test(lower)) out.push(word.slice(0, -2));
  if (lower.endsWith('s') && !lower.endsWith('ss') && !lower.endsWith('us') && !lower.endsWith('is'))
    out.push(word.slice(0, -1));
  return out;
}

/** Phrases between quotes (straight or curly, single or double). */
export function quotedPhrases(query: string): { text: string; start: number; end: number }[] {
  const out: { text: string; start: number; end: number }[] = [];
  for (const match of query.matchAll(/(?<![\p{L}\p{N}])['"‘“]([^'"‘’“”]{1,80}?)['"’”](?![\p{L}\p{N}])/gu)) {
    const text = match[1]!.trim();
    if (text.length > 0) out.push({ text, start: match.index + 1, end: match.index + 1 + match[1]!.length });
  }
  return out;
}
