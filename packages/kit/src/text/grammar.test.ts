import { describe, expect, it } from 'vitest';
import { countNoun, indefiniteArticle, withArticle } from './grammar.ts';

describe('grammar', () => {
  it('writes an before a vowel and a before the rest', () => {
    expect(withArticle('ingredient')).toBe('an ingredient');
    expect(withArticle('Ice-type move')).toBe('an Ice-type move');
    expect(withArticle('product')).toBe('a product');
    expect(indefiniteArticle('synset')).toBe('a');
  });

  it('says 1 result, 0 results, 1,500 results', () => {
    expect(countNoun(1, 'result')).toBe('1 result');
    expect(countNoun(0, 'result')).toBe('0 results');
    expect(countNoun(1500, 'result')).toBe('1,500 results');
    expect(countNoun(2, 'match', 'matches')).toBe('2 matches');
  });
});
