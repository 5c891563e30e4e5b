import { describe, expect, it } from 'vitest';
import { markdownTable, splitCounts } from './index.ts';

describe('source tables', () => {
  it('writes a Markdown table with its rule', () => {
    expect(markdownTable(['set', 'n'], [['hybrid', 3]])).toBe('| set | n |\n| --- | --- |\n| hybrid | 3 |');
  });

  it('counts queries per split in train, val, test order', () => {
    const q = (split: 'train' | 'val' | 'test') => ({ id: split, query: 'q', answers: [], split });
    expect(splitCounts([q('test'), q('train'), q('train'), q('val')])).toEqual([2, 1, 1]);
  });
});
