import { describe, expect, it } from 'vitest';
import { estimateTokens, truncateToTokens } from './token-budget.ts';

describe('token budget', () => {
  it('estimates more tokens for more text', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('one two three')).toBe(4);
    expect(estimateTokens('a'.repeat(400))).toBe(100);
  });

  it('cuts at a word boundary within the budget and keeps short texts whole', () => {
    const text = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');
    const cut = truncateToTokens(text, 30);
    expect(estimateTokens(cut)).toBeLessThanOrEqual(30);
    expect(cut.endsWith(' …')).toBe(true);
    expect(text.startsWith(cut.slice(0, -2))).toBe(true);
    expect(truncateToTokens('short   text', 30)).toBe('short text');
    expect(estimateTokens(truncateToTokens('x'.repeat(1000), 10))).toBeLessThanOrEqual(10);
  });
});
