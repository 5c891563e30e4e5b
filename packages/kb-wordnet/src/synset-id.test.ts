import { describe, expect, it } from 'vitest';
import { compareSynsetIds, synsetId } from './synset-id.ts';

describe('synsetId', () => {
  it('prefixes wn31: and folds satellites into a', () => {
    expect(synsetId('02086723', 'n')).toBe('wn31:02086723-n');
    expect(synsetId('00003356', 's')).toBe('wn31:00003356-a');
  });
});

describe('compareSynsetIds', () => {
  it('orders by part of speech n, v, a, r, then by offset', () => {
    const ids = [
      'wn31:00000001-r',
      'wn31:00000200-a',
      'wn31:00000100-a',
      'wn31:00000002-v',
      'wn31:09999999-n',
    ];
    expect(ids.sort(compareSynsetIds)).toEqual([
      'wn31:09999999-n',
      'wn31:00000002-v',
      'wn31:00000100-a',
      'wn31:00000200-a',
      'wn31:00000001-r',
    ]);
    expect(compareSynsetIds('wn31:00000100-a', 'wn31:00000100-a')).toBe(0);
  });
});
