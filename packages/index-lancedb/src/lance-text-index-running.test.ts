import { afterAll, describe, expect, it, vi } from 'vitest';
import { type LanceNodeRecord, writeLanceNodes } from './lance-node-table.ts';
import { LanceTextIndex } from './lance-text-index.ts';
import { tempDirectories } from './testing/temp-directories.ts';

const directories = tempDirectories('weft-lance-running-');
const tempDirectory = () => directories.make();
afterAll(() => directories.removeAll());

/** Documents alike by the dozen: many rows of one score. */
const colours = ['red', 'green', 'blue', 'yellow'];
const nodes: LanceNodeRecord[] = Array.from({ length: 300 }, (_, i) => ({
  id: `n:${i}`,
  type: 'tool',
  name: `item ${i}`,
  text: `a ${colours[i % colours.length]} thing, ${i % 7 === 0 ? 'round and sweet' : 'made of steel'}`,
}));

describe('searches in flight', () => {
  const ask = (index: LanceTextIndex, limit: number, filter?: { nodeTypes: string[] }) =>
    index.doSearch({ queries: ['round sweet blue'], limit, ...(filter ? { filter } : {}) });

  it('answer a search for fewer rows of the same words, field and filter, with the rows it gets alone', async () => {
    const directory = await tempDirectory();
    // Every document a different length and number of matches: no two scores are equal.
    const distinct: LanceNodeRecord[] = Array.from({ length: 120 }, (_, i) => ({
      id: `d:${i}`,
      type: i % 2 === 0 ? 'fruit' : 'tool',
      name: `d${i}`,
      text: `${'sweet '.repeat(1 + (i % 9))}${'blue '.repeat(i % 4)}${'filler '.repeat(i)}`,
    }));
    await writeLanceNodes({ directory, nodes: distinct });
    const index = await LanceTextIndex.open(directory);
    try {
      const alone = [
        await ask(index, 40),
        await ask(index, 10),
        await ask(index, 10, { nodeTypes: ['fruit'] }),
      ];
      const scores = alone[0]![0]!.map((hit) => hit.score);
      expect(scores).toEqual([...new Set(scores)]);
      const runs = vi.spyOn(index as unknown as { search: () => unknown }, 'search');
      // The larger search first (the smaller takes its first rows), and another filter (not shared).
      const together = await Promise.all([
        ask(index, 40),
        ask(index, 10),
        ask(index, 10, { nodeTypes: ['fruit'] }),
      ]);
      expect(together).toEqual(alone);
      expect(runs).toHaveBeenCalledTimes(2);
      expect(together[1]![0]![0]).not.toBe(together[0]![0]![0]);
    } finally {
      await index.close();
    }
  });

  it('leave a search whose rows tie in score to run on its own', async () => {
    const directory = await tempDirectory();
    await writeLanceNodes({ directory, nodes });
    const index = await LanceTextIndex.open(directory);
    try {
      const alone = [await ask(index, 30), await ask(index, 10), await ask(index, 50)];
      const together = await Promise.all([ask(index, 30), ask(index, 10), ask(index, 50)]);
      expect(together).toEqual(alone);
    } finally {
      await index.close();
    }
  });
});
