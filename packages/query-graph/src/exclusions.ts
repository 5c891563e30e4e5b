import { contentWords } from '@weft/grounding';
import { stem } from 'porter2';

/**
 * What a question says its answers are not: "(not documentation)", "(the runtime extensions, not
 * -all-dev)", ", not games", "other than Czech", "except …", "excluding …". `kept` is the question
 * without those phrases (the words its answers should match); `excluded` the phrases' words ('' when
 * it has none). Only explicit exclusions are read: "that don't evolve" describes a property, which
 * the text may state either way.
 */
export function exclusions(question: string): { readonly kept: string; readonly excluded: string } {
  const excluded: string[] = [];
  const cut = (pattern: RegExp, text: string, keep: (match: string, phrase: string) => string) =>
    text.replace(pattern, (match, phrase: string) => {
      excluded.push(phrase.trim());
      return keep(match, phrase);
    });
  // "(not X)" and "(Y, not X)": the parenthesis keeps Y.
  let kept = cut(/,?\s*\bnot\s+([^()]+?)\s*(?=\))/giu, question, () => '');
  kept = kept.replace(/\(\s*\)/gu, ' ');
  // ", not X" up to the next punctuation.
  kept = cut(/,\s*not\s+([^,.;:!?()]+)/giu, kept, () => ' ');
  kept = cut(
    /\b(?:other than|except(?: for)?|excluding|apart from|but not)\s+([^,.;:!?()]+)/giu,
    kept,
    () => ' ',
  );
  return {
    kept: kept
      .replace(/\s+/gu, ' ')
      .replace(/ ([,.;:!?])/gu, '$1')
      .trim(),
    excluded: excluded.join(' ').trim(),
  };
}

/**
 * Whether a document matches an exclusion: it holds every content word of it (stemmed), so that
 * "transitional packages" excludes the transitional package, not every package.
 */
export function matchesExclusion(excluded: string, document: string): boolean {
  const wanted = new Set(contentWords(excluded).map((w) => stem(w)));
  if (wanted.size === 0) return false;
  const held = new Set(contentWords(document).map((w) => stem(w)));
  return [...wanted].every((w) => held.has(w));
}
