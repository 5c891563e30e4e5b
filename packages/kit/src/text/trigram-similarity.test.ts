import { describe, expect, it } from 'vitest';
import { trigramCount, trigramSimilarity, trigrams } from './trigram-similarity.ts';

describe('trigramSimilarity', () => {
  it('pads and lower-cases labels into counted trigrams', () => {
    expect([...trigrams('Dog')]).toEqual([
      ['  d', 1],
      [' do', 1],
      ['dog', 1],
      ['og ', 1],
    ]);
    expect(trigrams('aaaa').get('aaa')).toBe(2);
    expect(trigramCount(trigrams('aaaa'))).toBe(5);
  });

  it('is the Dice coefficient of the trigram multisets', () => {
    expect(trigramSimilarity('Nikon D850', 'nikon d850')).toBe(1);
    // "abc" and "abd" share "  a" and " ab" of four grams each.
    expect(trigramSimilarity('abc', 'abd')).toBeCloseTo(0.5, 12);
    // "a": "  a", " a " against "ab": "  a", " ab", "ab ".
    expect(trigramSimilarity('a', 'ab')).toBeCloseTo((2 * 1) / 5, 12);
    // 11 and 12 grams; they part after "urt".
    expect(trigramSimilarity('frankfurtr', 'frankfurter')).toBeCloseTo((2 * 9) / 23, 12);
    expect(trigramSimilarity('zzz', 'qqq')).toBe(0);
  });

  it('is symmetric and counts repeated grams once per occurrence', () => {
    expect(trigramSimilarity('hello world', 'world hello')).toBeCloseTo(
      trigramSimilarity('world hello', 'hello world'),
      12,
    );
    // "aaaa" has "aaa" twice, "aaa" once: 4 of their 5 + 4 grams are shared, not 5.
    expect(trigramSimilarity('aaaa', 'aaa')).toBeCloseTo((2 * 4) / 9, 12);
  });
});
