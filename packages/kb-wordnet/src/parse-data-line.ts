import { lexicographerFiles } from './lexicographer-files.ts';
import { type PointerRelation, pointerRelation } from './pointer-relation.ts';
import { type SynsetType, synsetId } from './synset-id.ts';
import { WordnetDataError } from './wordnet-data-error.ts';

/** A pointer lifted to synsets: word-level (lexical) pointers become pointers between the two synsets. */
export interface WordnetPointer {
  readonly relation: PointerRelation;
  /** Id of the synset pointed to. */
  readonly target: string;
}

/** One synset, as one line of a data file states it. */
export interface WordnetSynset {
  readonly id: string;
  readonly type: SynsetType;
  /** Lexicographer file name, e.g. `noun.animal`. */
  readonly lexname: string;
  /** As written (underscores for spaces), without the adjective position markers `(a)`, `(p)`, `(ip)`. */
  readonly lemmas: readonly string[];
  readonly pointers: readonly WordnetPointer[];
  /** Definition and example sentences, as written. */
  readonly gloss: string;
}

const lexnamePrefix: Readonly<Record<SynsetType, string>> = {
  n: 'noun.',
  v: 'verb.',
  a: 'adj.',
  s: 'adj.',
  r: 'adv.',
};

const offsetPattern = /^\d{8}$/;
const typePattern = /^[nvasr]$/;
const positionMarker = /\((?:a|p|ip)\)$/;

/**
 * Parses one synset line of a WordNet data file (wndb(5WN)):
 * `offset lex_filenum ss_type w_cnt (word lex_id)… p_cnt (symbol offset pos source/target)… [frames] | gloss`,
 * where `w_cnt`, `lex_id` and `source/target` are hexadecimal. Verb lines carry `f_cnt (+ f_num w_num)…`
 * before the gloss; frames are checked and dropped. Throws a WordnetDataError naming `where`.
 */
export function parseDataLine(line: string, where: string): WordnetSynset {
  function fail(reason: string): never {
    throw new WordnetDataError(where, reason);
  }
  const bar = line.indexOf(' | ');
  if (bar < 0) fail('no " | " before the gloss');
  const fields = line.slice(0, bar).split(' ');
  let next = 0;
  function field(name: string, pattern: RegExp): string {
    const value = fields[next++];
    if (value === undefined) fail(`line ends where ${name} should be (field ${next})`);
    if (!pattern.test(value)) fail(`${name} "${value}" is malformed (field ${next})`);
    return value;
  }

  const offset = field('synset_offset', offsetPattern);
  const lexFileNumber = Number(field('lex_filenum', /^\d{2}$/));
  const type = field('ss_type', typePattern) as SynsetType;
  const lexname = lexicographerFiles[lexFileNumber]?.name;
  if (lexname === undefined) fail(`lex_filenum ${lexFileNumber} names no lexicographer file`);
  if (!lexname.startsWith(lexnamePrefix[type])) fail(`ss_type "${type}" in lexicographer file ${lexname}`);

  const wordCount = Number.parseInt(field('w_cnt', /^[0-9a-f]{2}$/i), 16);
  if (wordCount === 0) fail('w_cnt is 0: a synset has at least one word');
  const lemmas: string[] = [];
  for (let i = 0; i < wordCount; i++) {
    const word = field('word', /^\S+$/);
    lemmas.push(type === 'a' || type === 's' ? word.replace(positionMarker, '') : word);
    field('lex_id', /^[0-9a-f]$/i);
  }

  const pointerCount = Number(field('p_cnt', /^\d{3}$/));
  const pointers: WordnetPointer[] = [];
  for (let i = 0; i < pointerCount; i++) {
    const symbol = field('pointer_symbol', /^\S{1,2}$/);
    const relation = pointerRelation(symbol, type);
    if (relation === undefined) fail(`unknown pointer symbol "${symbol}" (field ${next})`);
    const targetOffset = field('pointer offset', offsetPattern);
    const targetType = field('pointer pos', typePattern) as SynsetType;
    field('source/target', /^[0-9a-f]{4}$/i);
    pointers.push({ relation, target: synsetId(targetOffset, targetType) });
  }

  if (type === 'v') {
    const frameCount = Number(field('f_cnt', /^\d{2}$/));
    for (let i = 0; i < frameCount; i++) {
      field('frame "+"', /^\+$/);
      field('f_num', /^\d{2}$/);
      field('w_num', /^[0-9a-f]{2}$/i);
    }
  }
  if (next < fields.length) fail(`unexpected "${fields[next]}" before the gloss (field ${next + 1})`);

  return {
    id: synsetId(offset, type),
    type,
    lexname,
    lemmas,
    pointers,
    // Lines end in two spaces of padding.
    gloss: line.slice(bar + 3).trimEnd(),
  };
}
