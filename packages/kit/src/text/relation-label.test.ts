import { describe, expect, it } from 'vitest';
import { edgeTypeWords, parseRelationLabel, relationLabel } from '../index.ts';

describe('relationLabel', () => {
  it('writes a relation in each style', () => {
    expect(relationLabel('made_by', 'out')).toBe('—made_by→');
    expect(relationLabel('made_by', 'in')).toBe('←made_by—');
    expect(relationLabel('made_by', 'in', 'plain')).toBe('made_by (in)');
    expect(relationLabel('made_by', 'in', 'key')).toBe('made_by|in');
    expect(relationLabel('made_by', 'out', 'metapath')).toBe('made_by:out');
  });

  it('reads key and metapath labels back, splitting at the last separator', () => {
    expect(parseRelationLabel('made_by|in', 'key')).toEqual({ edgeType: 'made_by', direction: 'in' });
    expect(parseRelationLabel('a:b:out', 'metapath')).toEqual({ edgeType: 'a:b', direction: 'out' });
    for (const direction of ['in', 'out'] as const)
      expect(parseRelationLabel(relationLabel('x_y', direction, 'key'), 'key')).toEqual({
        edgeType: 'x_y',
        direction,
      });
  });
});

describe('edgeTypeWords', () => {
  it('turns separators into spaces', () => {
    expect(edgeTypeWords('part_meronym')).toBe('part meronym');
    expect(edgeTypeWords('author___writes.paper/x:y-')).toBe('author writes paper x y');
  });
});
