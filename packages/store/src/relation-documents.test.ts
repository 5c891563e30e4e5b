import { describe, expect, it } from 'vitest';
import { edgeTypeWords, relationLabel } from './index.ts';

describe('edgeTypeWords', () => {
  it('writes an edge type name as words', () => {
    expect(edgeTypeWords('part_meronym')).toBe('part meronym');
    expect(edgeTypeWords('depends-on')).toBe('depends on');
    expect(edgeTypeWords('_made.by:')).toBe('made by');
  });

  it('is still exported under its old name, relationLabel', () => {
    expect(relationLabel('part_meronym')).toBe('part meronym');
  });
});
