import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTwoTypeVectors } from './testing/two-type-vectors.ts';
import { filteredMaxNprobes, LanceVectorIndex } from './lance-vector-index.ts';

describe('filteredMaxNprobes', () => {
  it('scales nprobes by the share of rows the filter drops', () => {
    expect(filteredMaxNprobes(96, 1000, 1000, 2)).toBe(192);
    expect(filteredMaxNprobes(96, 500, 1000, 2)).toBe(384);
    expect(filteredMaxNprobes(96, 550_000, 1_000_000, 1)).toBe(175);
  });
  it('never probes fewer than nprobes, and opens every partition when asked to or when nothing matches', () => {
    expect(filteredMaxNprobes(96, 1000, 1000, 0.1)).toBe(96);
    expect(filteredMaxNprobes(96, 1000, 1000, Number.POSITIVE_INFINITY)).toBe(1 << 20);
    expect(filteredMaxNprobes(96, 0, 1000, 2)).toBe(1 << 20);
    expect(filteredMaxNprobes(96, 1, 10 ** 9, 2)).toBe(1 << 20);
  });
});

// 4096 rows → an IVF index of 64 partitions; `rare` keeps 40 rows (1 %), `common` the rest.
describe('LanceVectorIndex with an IVF index under a filter', () => {
  let directory: string;
  let queries: number[][] = [];
  const opened: LanceVectorIndex[] = [];
  const open = async (options: { exact?: boolean; filterProbeFactor?: number } = {}) => {
    const index = await LanceVectorIndex.open(directory, { embedderId: 'test', nprobes: 2, ...options });
    opened.push(index);
    return index;
  };
  const search = async (index: LanceVectorIndex, query: number[], types: string[], limit: number) =>
    (await index.doSearch({ vectors: [query], limit, filter: { nodeTypes: types } }))[0]!.map((h) => h.id);

  beforeAll(async () => {
    let built: string;
    ({ directory, queries, built } = await writeTwoTypeVectors({
      prefix: 'weft-lance-ivf-',
      dimensions: 16,
      vectorIndex: 'ivf_flat',
    }));
    expect(built).toBe('ivf_flat');
  }, 60_000);
  afterAll(async () => {
    await Promise.all(opened.map((index) => index.close()));
    await rm(directory, { recursive: true, force: true });
  });

  it('gives a selective filter its k nearest rows: its partitions are all probed', async () => {
    const [index, exact] = [await open(), await open({ exact: true })];
    for (const query of queries) {
      const hits = await search(index, query, ['rare'], 30);
      expect(hits).toHaveLength(30);
      expect(hits).toEqual(await search(exact, query, ['rare'], 30));
    }
  });

  it('caps the partitions probed under a broad filter, which every partition would make exact', async () => {
    const [capped, open_, exact] = [
      await open(),
      await open({ filterProbeFactor: Infinity }),
      await open({ exact: true }),
    ];
    let found = 0;
    let wanted = 0;
    for (const query of queries) {
      const truth = await search(exact, query, ['common'], 50);
      expect(await search(open_, query, ['common'], 50)).toEqual(truth);
      const hits = await search(capped, query, ['common'], 50);
      // Still k results, from the ⌈2 × 2 / 0.99⌉ = 5 of 64 partitions nearest the query.
      expect(hits).toHaveLength(50);
      const got = new Set(hits);
      found += truth.filter((id) => got.has(id)).length;
      wanted += truth.length;
    }
    expect(found / wanted).toBeLessThan(0.9);
  });
});
