/**
 * `a` or `an` before a word, by its first letter: enough for the type names and phrases Weft writes
 * ("an ingredient", "a product", "an Ice-type move").
 */
export function indefiniteArticle(word: string): 'a' | 'an' {
  return /^[aeiou]/i.test(word.trim()) ? 'an' : 'a';
}

/** The phrase with its article: `withArticle('ingredient')` → `an ingredient`. */
export function withArticle(phrase: string): string {
  return `${indefiniteArticle(phrase)} ${phrase}`;
}

/** A count with its noun, singular for one: `countNoun(1, 'result')` → `1 result`, `countNoun(2, 'match', 'matches')`. */
export function countNoun(count: number, singular: string, plural = `${singular}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? singular : plural}`;
}
