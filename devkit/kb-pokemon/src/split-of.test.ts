import { describe, expect, it } from 'vitest';
import { splitOf } from './split-of.ts';

describe('splitOf', () => {
  it('deals 5 train, 3 test and 2 val in every ten consecutive query numbers', () => {
    const first = Array.from({ length: 10 }, (_, i) => splitOf(`pk-hyb-${String(i + 1).padStart(3, '0')}`));
    expect(first).toEqual([
      'train',
      'test',
      'train',
      'val',
      'train',
      'test',
      'train',
      'test',
      'train',
      'val',
    ]);
    expect(splitOf('pk-txt-011')).toBe('train');
    expect(splitOf('pk-txt-020')).toBe('val');
  });

  it('refuses an id without a number', () => {
    expect(() => splitOf('pk-hyb')).toThrow(/does not end with a number/);
  });
});
