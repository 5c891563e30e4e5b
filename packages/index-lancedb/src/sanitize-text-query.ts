/**
 * Reduces a user query to words separated by single spaces: every character that is not a letter or
 * digit (quotes, operators, brackets, CJK punctuation) becomes a space. LanceDB's plain-string FTS
 * turns a query wrapped in `"` into a phrase query, which fails on an index without positions; the
 * index also sends a structured `MatchQuery`, so this is the second of two guards. Empty = no words.
 */
export function sanitizeTextQuery(query: string): string {
  return query
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
