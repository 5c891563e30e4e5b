/**
 * Words of a node's name too common to count as naming it ("Heart of the Sea" is not named by
 * "the"); everything else of three or more characters is checked.
 */
const functionWords = new Set([
  'and',
  'the',
  'for',
  'with',
  'from',
  'into',
  'like',
  'not',
  'its',
  'are',
  'but',
  'nor',
  'off',
  'out',
]);

const words = (text: string): string[] =>
  text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);

/**
 * The names (or aliases) of `names` that `question` spells out, case-insensitively: a name counts as
 * spelled when the question contains the whole name as a phrase, or any word of it of three or more
 * characters that is not a function word ("Water 1" is spelled by "water"; "Mr. Mime" by "mime").
 * Used to check that a described query never names its anchors.
 */
export function namesSpelledIn(question: string, names: readonly string[]): string[] {
  const questionWords = words(question);
  const present = new Set(questionWords);
  const phrase = ` ${questionWords.join(' ')} `;
  return names.filter((name) => {
    const nameWords = words(name);
    if (nameWords.length === 0) return false;
    if (phrase.includes(` ${nameWords.join(' ')} `)) return true;
    return nameWords.some((word) => word.length >= 3 && !functionWords.has(word) && present.has(word));
  });
}
