import { describe, expect, it } from 'vitest';
import { countNoun } from './grammar.ts';

describe('countNoun (explorer)', () => {
  it('says 1 result, 0 results, 1,500 results', () => {
    expect(countNoun(1, 'result')).toBe('1 result');
    expect(countNoun(0, 'result')).toBe('0 results');
    expect(countNoun(1500, 'result')).toBe('1,500 results');
    expect(countNoun(2, 'match', 'matches')).toBe('2 matches');
  });
});
