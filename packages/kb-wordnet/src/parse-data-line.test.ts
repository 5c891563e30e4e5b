import { describe, expect, it } from 'vitest';
import { parseDataLine } from './parse-data-line.ts';
import { WordnetDataError } from './wordnet-data-error.ts';

const where = 'dict/data.noun:31';

function parseError(line: string): WordnetDataError {
  try {
    parseDataLine(line, where);
  } catch (error) {
    if (error instanceof WordnetDataError) return error;
    throw error;
  }
  throw new Error('expected a WordnetDataError');
}

describe('parseDataLine', () => {
  it('reads offset, lexicographer file, lemmas, pointers and gloss', () => {
    const synset = parseDataLine(
      '02086723 05 n 03 dog 0 domestic_dog 0 Canis_familiaris 0 003 @ 02085998 n 0000 #m 02086515 n 0000 + 01747945 v 0101 | a member of the genus Canis; "the dog barked all night"  ',
      where,
    );
    expect(synset).toEqual({
      id: 'wn31:02086723-n',
      type: 'n',
      lexname: 'noun.animal',
      lemmas: ['dog', 'domestic_dog', 'Canis_familiaris'],
      pointers: [
        { relation: { type: 'hypernym', inverse: false, symmetric: false }, target: 'wn31:02085998-n' },
        { relation: { type: 'member_meronym', inverse: true, symmetric: false }, target: 'wn31:02086515-n' },
        {
          relation: { type: 'derivationally_related', inverse: false, symmetric: true },
          target: 'wn31:01747945-v',
        },
      ],
      gloss: 'a member of the genus Canis; "the dog barked all night"',
    });
  });

  it('reads w_cnt and lex_id as hexadecimal', () => {
    const words = Array.from({ length: 11 }, (_, i) => `w${i} ${(i % 16).toString(16)}`).join(' ');
    const synset = parseDataLine(`00001740 03 n 0b ${words} 000 | eleven words  `, where);
    expect(synset.lemmas).toHaveLength(11);
    expect(synset.lemmas.at(-1)).toBe('w10');
  });

  it('gives satellites an `a` id, keeps `s` as their type and strips adjective position markers', () => {
    const synset = parseDataLine(
      '00003356 00 s 02 hot(p) 0 red-hot(ip) 0 001 & 00003131 a 0000 | very hot  ',
      where,
    );
    expect(synset.id).toBe('wn31:00003356-a');
    expect(synset.type).toBe('s');
    expect(synset.lemmas).toEqual(['hot', 'red-hot']);
    expect(synset.pointers[0]?.relation.type).toBe('similar_to');
  });

  it('keeps a parenthesised ending that is no position marker, and any ending on nouns', () => {
    expect(parseDataLine('00001740 00 a 01 stray(s) 0 000 | x  ', where).lemmas).toEqual(['stray(s)']);
    expect(parseDataLine('00001740 03 n 01 thing(a) 0 000 | x  ', where).lemmas).toEqual(['thing(a)']);
  });

  it('maps \\ by the holder: pertainym on adjectives, derived_from_adjective on adverbs and nouns', () => {
    const pointerType = (line: string) => parseDataLine(line, where).pointers[0]?.relation.type;
    expect(pointerType('00001740 01 a 01 dental 0 001 \\ 05289057 n 0101 | of teeth  ')).toBe('pertainym');
    expect(pointerType('00001740 02 r 01 quickly 0 001 \\ 00979366 a 0101 | fast  ')).toBe(
      'derived_from_adjective',
    );
    expect(pointerType('07569690 12 n 01 mellowness 0 001 \\ 01159816 a 0101 | good humour  ')).toBe(
      'derived_from_adjective',
    );
  });

  it('reads and drops the frames of verb lines', () => {
    const synset = parseDataLine(
      '00001740 29 v 01 breathe 0 001 * 00005041 v 0000 02 + 02 00 + 08 01 | draw air into the lungs  ',
      where,
    );
    expect(synset.pointers.map((p) => p.relation.type)).toEqual(['entailment']);
    expect(synset.gloss).toBe('draw air into the lungs');
  });

  it('keeps a " | " inside the gloss', () => {
    expect(parseDataLine('00001740 03 n 01 pipe 0 000 | the sign | in logic  ', where).gloss).toBe(
      'the sign | in logic',
    );
  });

  it.each([
    ['no gloss separator', '00001740 03 n 01 entity 0 000', 'no " | " before the gloss'],
    ['a short offset', '1740 03 n 01 entity 0 000 | x', 'synset_offset "1740" is malformed (field 1)'],
    ['an unknown ss_type', '00001740 03 x 01 entity 0 000 | x', 'ss_type "x" is malformed (field 3)'],
    [
      'lex_filenum out of range',
      '00001740 45 n 01 entity 0 000 | x',
      'lex_filenum 45 names no lexicographer file',
    ],
    [
      'a verb in a noun file',
      '00001740 29 n 01 entity 0 000 | x',
      'ss_type "n" in lexicographer file verb.body',
    ],
    ['no words', '00001740 03 n 00 000 | x', 'w_cnt is 0: a synset has at least one word'],
    [
      'a missing pointer',
      '00001740 03 n 01 entity 0 002 @ 00001930 n 0000 | x',
      'line ends where pointer_symbol should be (field 12)',
    ],
    [
      'an unknown pointer',
      '00001740 03 n 01 entity 0 001 ? 00001930 n 0000 | x',
      'unknown pointer symbol "?" (field 8)',
    ],
    [
      'a bad source/target',
      '00001740 03 n 01 entity 0 001 @ 00001930 n 00x0 | x',
      'source/target "00x0" is malformed (field 11)',
    ],
    [
      'frames on a noun',
      '00001740 03 n 01 entity 0 000 01 + 02 00 | x',
      'unexpected "01" before the gloss (field 8)',
    ],
    [
      'a verb without frames',
      '00001740 29 v 01 breathe 0 000 | x',
      'line ends where f_cnt should be (field 8)',
    ],
  ])('rejects %s, naming file and line', (_, line, reason) => {
    const error = parseError(line);
    expect(error.where).toBe(where);
    expect(error.message).toBe(`${where}: ${reason}`);
  });
});
