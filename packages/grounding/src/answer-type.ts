import { type NounPhrase, nounPhrases } from './noun-phrases.ts';
import { isFunctionWord, singularForms } from './query-spans.ts';

/** Lower case without diacritics: people write the type `pokemon` as "Pokémon". */
function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

const lower = (text: string) => text.toLowerCase();

/**
 * Node type names as the words a question uses for them (`egg_group` → `egg group`), compared as
 * `normalise` writes them (lower case by default).
 */
export function typeWords(
  types: readonly string[],
  normalise: (text: string) => string = lower,
): Map<string, string> {
  const out = new Map<string, string>();
  for (const type of types) out.set(normalise(type.replace(/[_\-.:/]+/g, ' ').trim()), type);
  return out;
}

/** The node type that the last one or two of these words spell (plural or singular), if any. */
export function typeOfWords(
  words: readonly { readonly text: string }[],
  types: ReadonlyMap<string, string>,
  normalise: (text: string) => string = lower,
): string | undefined {
  const written = words.map((w) => normalise(w.text));
  const head = written.at(-1) ?? '';
  return (
    types.get(written.slice(-2).join(' ')) ??
    types.get(head) ??
    singularForms(head)
      .map((h) => types.get(h))
      .find(Boolean)
  );
}

/** "which moves", "what kind of package", "which of its abilities": the asked-for noun follows. */
const whPhrase =
  /\b(?:which|what)\s+(?:(?:kinds?|sorts?|types?)\s+of\s+|of\s+(?:its|their|the|his|her|these|those)\s+)?/giu;

/**
 * The node types a question asks for, when its words say so (one type, the types of a family the
 * words name, or none): the noun phrase right after "which" or
 * "what", or after one descriptive word ("which *hidden* ability", not "what *does* Pikachu learn"),
 * as in "Which moves of …", "which of its abilities …"; or, in a question without one, its first
 * noun phrase ("Fairy-type Pokémon with …", "Multi-hit moves known by …"), or what that phrase's
 * owner owns ("Necrozma's form abilities"), when that phrase's head spells one of `nodeTypes`
 * (diacritics aside). "which one" points back to a noun named before ("Among the abilities of …,
 * which one …"), so the question is read as if it had no wh-phrase. A wh-phrase whose noun names no
 * type ("The ancient bug Pokémon: which cartridge …") gives none: the first phrase of such a question
 * names what it builds on, not what it asks for.
 */
export function answerTypes(question: string, nodeTypes: readonly string[]): string[] {
  const types = typeWords(nodeTypes, fold);
  const phrases = nounPhrases(question);
  let asked = false;
  for (const match of question.matchAll(whPhrase)) {
    const at = match.index + match[0].length;
    const phrase = phrases.find((p) => p.start >= at);
    const between = phrase ? question.slice(at, phrase.start).trim() : '';
    if (!phrase || !/^[\p{L}-]*$/u.test(between) || (between !== '' && isFunctionWord(between))) continue;
    if (phrase.words.length === 1 && /^ones?$/iu.test(phrase.words[0]!.text)) continue;
    asked = true;
    const type = nearestType(phrase, types);
    if (type) return [type];
    const family = familyOf(phrase, nodeTypes);
    if (family.length) return family;
  }
  if (asked) return [];
  // "both Pokémon's HP": the owner of a possessive is not what is asked for; what it owns may be.
  const owned = phrases.find((p) => !/^['’]s\b/u.test(question.slice(p.end)));
  const type = owned && typeOfWords(owned.words, types, fold);
  return type ? [type] : [];
}

/**
 * The types of the family the phrase's head names, for type names written as `family.member`
 * (`adj.all`, `adj.pert`, `verb.motion`): "which adjective" asks for every `adj.` type, "which
 * verbs" for every `verb.` type, "which adverb" for `adv.all`. The head names a family when it is its
 * first segment or begins with it (`adj` → "adjective"). (Members — "which person" for
 * `noun.person` — moved WordNet hybrid train −1 and val +1 question: not read.)
 */
function familyOf(phrase: NounPhrase, nodeTypes: readonly string[]): string[] {
  const members = new Map<string, string[]>();
  for (const type of nodeTypes) {
    const [first, ...rest] = fold(type).split(/[.:/]/);
    if (!first || rest.length === 0) continue;
    (members.get(first) ?? members.set(first, []).get(first)!).push(type);
  }
  const head = fold(phrase.words.at(-1)?.text ?? '');
  for (const word of [head, ...singularForms(head)]) {
    for (const [family, types] of members) {
      if (word === family || (family.length >= 3 && word.startsWith(family))) return types;
    }
  }
  return [];
}

/** The phrase's head, else the nearest word before it that spells a type ("abilities" in "abilities powers"). */
function nearestType(phrase: NounPhrase, types: ReadonlyMap<string, string>): string | undefined {
  for (let k = phrase.words.length; k >= 1; k--) {
    const type = typeOfWords(phrase.words.slice(0, k), types, fold);
    if (type) return type;
  }
  return undefined;
}
