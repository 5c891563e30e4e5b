import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTwoTypeVectors } from './testing/two-type-vectors.ts';
import { LanceVectorIndex } from './lance-vector-index.ts';
import { openLanceVectorTable } from './lance-node-table.ts';
import { chooseVectorIndex, flatSearchMaxRows } from './vector-index-choice.ts';

describe('chooseVectorIndex', () => {
  it('scans small tables and indexes larger ones with IVF_FLAT: auto never quantises', () => {
    expect(chooseVectorIndex(3_128)).toBe('flat');
    expect(chooseVectorIndex(flatSearchMaxRows)).toBe('flat');
    expect(chooseVectorIndex(117_659)).toBe('ivf_flat');
    expect(chooseVectorIndex(1_000_000)).toBe('ivf_flat');
  });
  it('builds what is asked for, whatever the size', () => {
    expect(chooseVectorIndex(1_000_000, 'ivf_rq')).toBe('ivf_rq');
    expect(chooseVectorIndex(1_000, 'ivf_rq')).toBe('ivf_rq');
  });
});

// 4096 rows → an IVF_RQ index of 64 partitions; `rare` keeps 40 rows (1 %), `common` the rest.
describe('LanceVectorIndex over an IVF_RQ index', () => {
  let directory: string;
  let queries: number[][] = [];
  const opened: LanceVectorIndex[] = [];
  const open = async (options: { exact?: boolean } = {}) => {
    const index = await LanceVectorIndex.open(directory, { embedderId: 'test', nprobes: 2, ...options });
    opened.push(index);
    return index;
  };
  const search = async (
    index: LanceVectorIndex,
    query: number[],
    types: string[] | undefined,
    limit: number,
  ) =>
    (
      await index.doSearch({ vectors: [query], limit, ...(types ? { filter: { nodeTypes: types } } : {}) })
    )[0]!;

  beforeAll(async () => {
    let built: string;
    ({ directory, queries, built } = await writeTwoTypeVectors({
      prefix: 'weft-lance-rq-',
      dimensions: 32,
      vectorIndex: 'ivf_rq',
    }));
    expect(built).toBe('ivf_rq');
  }, 60_000);
  afterAll(async () => {
    await Promise.all(opened.map((index) => index.close()));
    await rm(directory, { recursive: true, force: true });
  });

  it('is the table’s vector index, and searches go through it (not an exact scan)', async () => {
    const { db, table } = await openLanceVectorTable(directory);
    const indexes = await table.listIndices();
    expect(indexes.find((i) => i.columns.includes('vector'))?.indexType).toBe('IvfRq');
    const plan = await table
      .vectorSearch(Float32Array.from(queries[0]!))
      .column('vector')
      .distanceType('cosine')
      .explainPlan();
    expect(plan).toMatch(/ANNSubIndex/);
    table.close();
    db.close();
  });

  it('gives k results with a filter or none, a selective filter its own rows only', async () => {
    const index = await open();
    for (const query of queries) {
      expect(await search(index, query, undefined, 20)).toHaveLength(20);
      const rare = await search(index, query, ['rare'], 30);
      expect(rare).toHaveLength(30);
      expect(rare.every((hit) => hit.type === 'rare' && hit.score <= 1 + 1e-6)).toBe(true);
    }
  });

  it('keeps most of the exact neighbours of a selective filter (every partition is probed)', async () => {
    const [index, exact] = [await open(), await open({ exact: true })];
    let found = 0;
    let wanted = 0;
    for (const query of queries) {
      const truth = (await search(exact, query, ['rare'], 10)).map((h) => h.id);
      const got = new Set((await search(index, query, ['rare'], 10)).map((h) => h.id));
      found += truth.filter((id) => got.has(id)).length;
      wanted += truth.length;
    }
    // 4-bit codes rank approximately: near, not equal, to the exact order.
    expect(found / wanted).toBeGreaterThan(0.7);
  });
});
