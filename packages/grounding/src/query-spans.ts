/** A stretch of the query that may name a graph node. */
export interface QuerySpan {
  readonly text: string;
  readonly start: number;
  readonly end: number;
  readonly words: number;
  /** Written between quotes: the user marked it as a name. */
  readonly quoted: boolean;
}

/**
 * Function words of English: a span never starts or ends with one ("the Nikon", "lens for"). A
 * fixed list rather than a learned one: what a name may look like does not depend on the KB.
 */
const functionWords: ReadonlySet<string> = new Set(
  (
    'a an the of in on at to for from by with about as into onto over under and or nor but if then than so ' +
    'is are was were be been being am do does did has have had having it its this that these those there here ' +
    'which what who whom whose where when why how whoever whatever one ones some any each every all both either ' +
    'neither no not only very too also just such can could may might must shall should will would s t ' +
    'i you he she we they me him her us them my your his our their up down out off again once'
  ).split(' '),
);

/** A function word of English (`the`, `of`, `which`): never the first or last word of a name. */
export function isFunctionWord(word: string): boolean {
  return functionWords.has(word.toLowerCase());
}

/** The query's words, lower-cased, without function words: what word-based models look at. */
export function contentWords(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => !functionWords.has(word));
}

const wordPattern = /[\p{L}\p{N}]+(?:['’\-.][\p{L}\p{N}]+)*/gu;
const quotePattern = /(?<![\p{L}\p{N}])['"‘“]([^'"‘’“”]{1,80}?)['"’”](?![\p{L}\p{N}])/gu;

/**
 * The spans of a query that could be names: quoted phrases, and runs of up to `maxWords` words that
 * neither start nor end with a function word and do not cross sentence punctuation. Longest first.
 */
export function querySpans(query: string, maxWords = 4): QuerySpan[] {
  const words = [...query.matchAll(wordPattern)].map((m) => ({
    text: m[0],
    start: m.index,
    end: m.index + m[0].length,
  }));
  const spans: QuerySpan[] = [];
  const seen = new Set<string>();
  const add = (start: number, end: number, words: number, quoted: boolean) => {
    const key = `${start}:${end}`;
    const text = query.slice(start, end).trim();
    if (!text || seen.has(key)) return;
    seen.add(key);
    spans.push({ text, start, end, words, quoted });
  };
  for (const match of query.matchAll(quotePattern)) {
    const start = match.index + 1;
    const inner = match[1]!;
    add(start, start + inner.length, (inner.match(wordPattern) ?? []).length, true);
  }
  for (let n = Math.min(maxWords, words.length); n >= 1; n--) {
    for (let i = 0; i + n <= words.length; i++) {
      const first = words[i]!;
      const last = words[i + n - 1]!;
      if (functionWords.has(first.text.toLowerCase()) || functionWords.has(last.text.toLowerCase())) continue;
      if (/[,;:?!()]/.test(query.slice(first.end, last.start))) continue;
      add(first.start, last.end, n, false);
    }
  }
  return spans;
}

/** Singular guesses for an English plural last word (`cities` → `city`, `boxes` → `box`, `dogs` → `dog`). */
export function singularForms(span: string): string[] {
  const last = span.match(/[\p{L}\p{N}]+$/u)?.[0];
  if (!last || last.length <= 3) return [];
  const head = span.slice(0, span.length - last.length);
  const lower = last.toLowerCase();
  const out: string[] = [];
  if (lower.endsWith('ies')) out.push(`${head}${last.slice(0, -3)}y`);
  if (/(ses|xes|zes|ches|shes)$/.test(lower)) out.push(`${head}${last.slice(0, -2)}`);
  if (lower.endsWith('s') && !/(ss|us|is)$/.test(lower)) out.push(`${head}${last.slice(0, -1)}`);
  return out;
}
