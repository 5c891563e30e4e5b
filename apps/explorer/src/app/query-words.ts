/** Words of a question that say nothing about a node: never highlighted. */
const functionWords = new Set(
  (
    'a an the of in on at to for from by with about as into and or but if is are was were be been it its ' +
    'this that these those which what who whom whose where when why how all any some no not only very ' +
    'can could may might must should will would do does did has have had kind kinds type sort one ones'
  ).split(' '),
);

/** The words of a question worth marking in a document: lower-cased, no function words, 3+ letters. */
export function queryWords(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words.filter((w) => w.length >= 3 && !functionWords.has(w)))];
}

/**
 * Where the question's words occur in `text`, as `[start, end)` ranges in order: a word of the text
 * matches a query word it equals, or one it starts with when the query word has 4+ letters (lens →
 * lenses, camera → cameras).
 */
export function matchRanges(text: string, query: string): [number, number][] {
  const words = queryWords(query);
  if (words.length === 0) return [];
  const ranges: [number, number][] = [];
  for (const match of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = match[0].toLowerCase();
    if (words.some((q) => word === q || (q.length >= 4 && word.startsWith(q))))
      ranges.push([match.index, match.index + match[0].length]);
  }
  return ranges;
}

/** `text` cut into plain and matched pieces, for `<mark>`s. */
export function markedPieces(text: string, query: string): { text: string; matched: boolean }[] {
  const pieces: { text: string; matched: boolean }[] = [];
  let at = 0;
  for (const [start, end] of matchRanges(text, query)) {
    if (start > at) pieces.push({ text: text.slice(at, start), matched: false });
    pieces.push({ text: text.slice(start, end), matched: true });
    at = end;
  }
  if (at < text.length) pieces.push({ text: text.slice(at), matched: false });
  return pieces;
}
