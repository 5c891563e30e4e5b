import { describe, expect, it } from 'vitest';
import { decodeDeltas, encodeDeltas, PackedStrings, PackedStringTable } from './packed-strings.ts';

describe('packed strings and their hash table', () => {
  it('give back every string, and find each (and nothing else) through the table', () => {
    const strings = [
      '',
      'a',
      'béla ✓',
      'a\0b',
      '日本語',
      ...Array.from({ length: 2_000 }, (_, i) => `k${i}`),
    ];
    const packed = PackedStrings.from(strings);
    expect(packed.length).toBe(strings.length);
    expect(packed.toArray()).toEqual(strings);
    expect(PackedStrings.valid(packed.bytes, packed.start)).toBe(true);
    const table = PackedStringTable.build(packed);
    expect(PackedStringTable.valid(table.slots, packed.length)).toBe(true);
    strings.forEach((text, i) => {
      expect(table.find(text)).toBe(text === '' ? -1 : i);
    });
    for (const missing of ['b', 'a\0', 'k2000', 'béla', 'K1']) expect(table.find(missing)).toBe(-1);
  });

  it('packs undefined as empty, and an empty list', () => {
    expect(PackedStrings.from(['x', undefined, 'y']).toArray()).toEqual(['x', '', 'y']);
    const none = PackedStringTable.build(PackedStrings.from([]));
    expect(none.length).toBe(0);
    expect(none.find('x')).toBe(-1);
  });

  it('tell malformed offsets and tables apart', () => {
    const bytes = Buffer.from('abc');
    expect(PackedStrings.valid(bytes, Uint32Array.from([0, 2, 1, 3]))).toBe(false);
    expect(PackedStrings.valid(bytes, Uint32Array.from([0, 1, 4]))).toBe(false);
    expect(PackedStrings.valid(bytes, Uint32Array.from([1, 3]))).toBe(false);
    expect(PackedStrings.valid(bytes, new Uint32Array(0))).toBe(false);
    // A full table (no empty slot: a probe would never end), a length not a power of two, an entry out of range.
    expect(PackedStringTable.valid(new Uint32Array(8).fill(1), 3)).toBe(false);
    expect(PackedStringTable.valid(new Uint32Array(12), 3)).toBe(false);
    expect(PackedStringTable.valid(Uint32Array.from([0, 0, 4, 0, 0, 0, 0, 0]), 3)).toBe(false);
  });

  it('code integer lists as deltas and decode them back, in any order', () => {
    const lists = [[], [0, 1, 2, 300, 70_000], [5, 3, 0xffff_ffff, 0, 7], [42]];
    const start = Uint32Array.from([0, ...lists.map((_, i) => lists.slice(0, i + 1).flat().length)]);
    const coded = encodeDeltas(start, Uint32Array.from(lists.flat()));
    expect(coded.start.length).toBe(lists.length + 1);
    expect(PackedStrings.valid(coded.bytes, coded.start)).toBe(true);
    lists.forEach((list, i) => {
      expect(
        Array.from(decodeDeltas(coded.bytes, coded.start[i]!, coded.start[i + 1]!, list.length)),
      ).toEqual(list);
    });
    // Ascending small gaps take a byte each.
    const ascending = Uint32Array.from({ length: 1_000 }, (_, i) => i * 3);
    expect(encodeDeltas(Uint32Array.from([0, 1_000]), ascending).bytes.length).toBe(1_000);
  });
});
