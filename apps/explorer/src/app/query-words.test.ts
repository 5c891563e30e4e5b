import { describe, expect, it } from 'vitest';
import { markedPieces, matchRanges, queryWords } from './query-words.ts';
import { citationPieces, sseReader } from './sse.ts';

describe('query words', () => {
  it('keeps the words worth marking and finds them, plurals included', () => {
    expect(queryWords('Which Nikon zoom lens is for a DSLR?')).toEqual(['nikon', 'zoom', 'lens', 'dslr']);
    const text = 'Telephoto zoom lenses with F-mount for Nikon bodies.';
    expect(matchRanges(text, 'Nikon zoom lens').map(([s, e]) => text.slice(s, e))).toEqual([
      'zoom',
      'lenses',
      'Nikon',
    ]);
    expect(markedPieces('a zoom lens', 'zoom')).toEqual([
      { text: 'a ', matched: false },
      { text: 'zoom', matched: true },
      { text: ' lens', matched: false },
    ]);
    expect(matchRanges('anything', 'of the a')).toEqual([]);
  });
});

describe('server-sent events', () => {
  it('reads events across chunks, named or not, with multi-line data', () => {
    const reader = sseReader();
    expect(reader.push('event: evidence\ndata: {"a":')).toEqual([]);
    expect(
      reader.push('1}\n\nevent: delta\r\ndata: {"text":"x"}\r\n\r\n: comment\n\ndata: one\ndata: two\n\n'),
    ).toEqual([
      { event: 'evidence', data: '{"a":1}' },
      { event: 'delta', data: '{"text":"x"}' },
      { event: 'message', data: 'one\ntwo' },
    ]);
  });

  it('cuts an answer into text and citations, leaving brackets with words alone', () => {
    expect(citationPieces('Nikon makes it [b:nikon]. See [p:a, p:b] and [a note].')).toEqual([
      { text: 'Nikon makes it ' },
      { ids: ['b:nikon'], raw: '[b:nikon]' },
      { text: '. See ' },
      { ids: ['p:a', 'p:b'], raw: '[p:a, p:b]' },
      { text: ' and [a note].' },
    ]);
  });
});
