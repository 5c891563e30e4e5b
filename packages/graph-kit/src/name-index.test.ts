import { trigramSimilarity } from '@weft/kit';
import { InMemoryGraphStore, toySkb } from '@weft/core/test';
import { describe, expect, it } from 'vitest';
import { NameIndex } from './name-index.ts';

describe('NameIndex', () => {
  const index = new NameIndex();
  index.add({ id: 'a', type: 't1', name: 'Dog', aliases: ['domestic dog', 'Canis familiaris'] });
  index.add({ id: 'b', type: 't2', name: 'dog', aliases: [] });
  index.add({ id: 'c', type: 't1', name: 'Hot dog', aliases: ['frankfurter'] });
  index.add({ id: 'd', type: 't1', name: 'Cat', aliases: ['dog'] });

  it('ranks exact, alias and case-insensitive matches', () => {
    expect(index.lookup('dog', { limit: 10, fuzzy: true }).map((m) => [m.id, m.match, m.score])).toEqual([
      ['b', 'exact', 1],
      ['d', 'alias', 0.95],
      ['a', 'case-insensitive', 0.9],
    ]);
    expect(index.lookup('CANIS FAMILIARIS', { limit: 10, fuzzy: true })).toEqual([
      {
        id: 'a',
        type: 't1',
        name: 'Dog',
        match: 'case-insensitive',
        score: 0.9,
        matched: 'Canis familiaris',
      },
    ]);
    expect(index.lookup('dog', { limit: 10, fuzzy: true, nodeTypes: ['t2'] }).map((m) => m.id)).toEqual([
      'b',
    ]);
    expect(index.lookup('dog', { limit: 1, fuzzy: true })).toHaveLength(1);
  });

  it('falls back to trigram similarity, only when nothing matches exactly', () => {
    const fuzzy = index.lookup('frankfurtr', { limit: 10, fuzzy: true });
    expect(fuzzy[0]).toMatchObject({ id: 'c', match: 'fuzzy', matched: 'frankfurter' });
    expect(fuzzy[0]!.score).toBeCloseTo(0.8 * trigramSimilarity('frankfurtr', 'frankfurter'));
    expect(index.lookup('frankfurtr', { limit: 10, fuzzy: false })).toEqual([]);
    expect(index.lookup('zzzzqqq', { limit: 10, fuzzy: true })).toEqual([]);
    expect(index.lookup('   ', { limit: 10, fuzzy: true })).toEqual([]);
  });

  it('finds the same fuzzy matches, with the same scores, as the reference store', async () => {
    const skb = toySkb();
    const reference = new InMemoryGraphStore(skb);
    const names = new NameIndex();
    for (const node of skb.nodes)
      names.add({ id: node.id, type: node.type, name: node.name, aliases: node.aliases ?? [] });
    const queries = [
      'Nikn D850',
      'Nikkor 200-50',
      'Canon EOS',
      'Leitz camera',
      'Bushnel Trophy',
      'trail cam',
    ];
    const expected = await reference.doLookup(queries, { fuzzy: true, limit: 5 });
    for (const [i, query] of queries.entries()) {
      const got = names.lookup(query, { fuzzy: true, limit: 5 });
      expect(got.map((m) => [m.id, m.match, m.matched])).toEqual(
        expected[i]!.map((m) => [m.id, m.match, m.matched]),
      );
      for (const [j, match] of got.entries()) expect(match.score).toBeCloseTo(expected[i]![j]!.score, 12);
    }
    expect(expected.some((list) => list.some((m) => m.match === 'fuzzy'))).toBe(true);
  });
});

describe('NameIndex fuzzy fallback on a large index', () => {
  it('still finds the best fuzzy match when the query shares grams carried by most labels', () => {
    const index = new NameIndex();
    // 3,000 labels that all start with "the " (its grams are then too common to search by).
    for (let i = 0; i < 3_000; i++)
      index.add({ id: `n${i}`, type: 't', name: `the ${(i * 7919).toString(36)}zz`, aliases: [] });
    index.add({ id: 'target', type: 't', name: 'the quokka', aliases: [] });
    const [best] = index.lookup('the quokkas', { limit: 3, fuzzy: true });
    expect(best?.id).toBe('target');
    expect(best?.score).toBeCloseTo(0.8 * trigramSimilarity('the quokkas', 'the quokka'), 10);
  });
});
