/** `a` or `an` before a word, by its first letter (enough for type names: "an Ice-type move"). */
export function indefiniteArticle(word: string): 'a' | 'an' {
  return /^[AEIOU]/i.test(word) ? 'an' : 'a';
}
