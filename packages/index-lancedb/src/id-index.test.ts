import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type LanceNodeRecord, openLanceTable, writeLanceNodes } from './lance-node-table.ts';
import { LanceTextIndex } from './lance-text-index.ts';
import { updateLanceNodes } from './update-lance-nodes.ts';
import { tempDirectories } from './testing/temp-directories.ts';

const directories = tempDirectories('weft-lance-id-');
const tempDirectory = () => directories.make();
afterAll(() => directories.removeAll());

const colours = ['red', 'green', 'blue', 'yellow'];
const nodes: LanceNodeRecord[] = Array.from({ length: 300 }, (_, i) => ({
  id: `n:${i}`,
  type: i % 3 === 0 ? 'fruit' : 'tool',
  name: `item ${i}`,
  text: `a ${colours[i % colours.length]} thing, ${i % 7 === 0 ? 'round and sweet' : 'made of steel'}`,
}));

/** The `id` index of a table, with its counts of indexed and unindexed rows; undefined when none. */
async function idIndex(directory: string) {
  const { db, table } = await openLanceTable(directory);
  try {
    const index = (await table.listIndices()).find((i) => i.columns.join() === 'id');
    return index && { type: index.indexType, ...(await table.indexStats(index.name)) };
  } finally {
    table.close();
    db.close();
  }
}

async function dropIdIndex(directory: string): Promise<void> {
  const { db, table } = await openLanceTable(directory);
  try {
    await table.dropIndex('id_idx');
  } finally {
    table.close();
    db.close();
  }
}

/** BM25 searches restricted to id sets (including an id that is not there), as rows. */
async function idFilteredSearches(directory: string) {
  const index = await LanceTextIndex.open(directory);
  try {
    const idSets = [
      ['n:0', 'n:7', 'n:14', 'n:21', 'n:5', 'n:9'],
      nodes.filter((_, i) => i % 5 === 0).map((n) => n.id),
      ['n:3', 'n:299', 'n:absent', "o'neil"],
    ];
    const results = [];
    for (const ids of idSets)
      results.push(
        ...(await index.doSearch({ queries: ['round sweet', 'blue steel'], limit: 20, filter: { ids } })),
      );
    return results;
  } finally {
    await index.close();
  }
}

describe('the id index', () => {
  it('is built at ingest, and id-filtered searches return the same rows with it as without', async () => {
    const directory = await tempDirectory();
    await writeLanceNodes({ directory, nodes });
    expect(await idIndex(directory)).toMatchObject({
      type: 'BTree',
      numIndexedRows: 300,
      numUnindexedRows: 0,
    });
    const withIndex = await idFilteredSearches(directory);
    expect(withIndex.flat().length).toBeGreaterThan(10);
    expect(withIndex[0]!.map((hit) => hit.id).sort()).toEqual(['n:0', 'n:14', 'n:21', 'n:7']);

    await dropIdIndex(directory);
    expect(await idIndex(directory)).toBeUndefined();
    expect(await idFilteredSearches(directory)).toEqual(withIndex);
  });

  it('is built by an update of a table without one, and takes in the updated rows', async () => {
    const source = await tempDirectory();
    await writeLanceNodes({ directory: source, nodes });
    await dropIdIndex(source);
    const directory = path.join(await tempDirectory(), 'updated');
    await updateLanceNodes({
      source,
      directory,
      upserts: [
        { id: 'n:1', type: 'fruit', name: 'item 1', text: 'round and sweet now' },
        { id: 'n:new', type: 'fruit', name: 'new item', text: 'round sweet and blue' },
      ],
      deletions: ['n:0'],
      // Merged as a larger change set would be (`textMergeRows`): the index then holds every row.
      textMergeRows: 0,
    });
    // The source is left as it was.
    expect(await idIndex(source)).toBeUndefined();
    expect(await idIndex(directory)).toMatchObject({ numIndexedRows: 300, numUnindexedRows: 0 });

    const index = await LanceTextIndex.open(directory);
    try {
      const [hits] = await index.doSearch({
        queries: ['round sweet'],
        limit: 10,
        filter: { ids: ['n:0', 'n:1', 'n:new', 'n:7'] },
      });
      expect(hits!.map((hit) => hit.id).sort()).toEqual(['n:1', 'n:7', 'n:new']);
    } finally {
      await index.close();
    }

    // A second update starts from a table with the index and keeps it whole.
    const next = path.join(await tempDirectory(), 'updated');
    await updateLanceNodes({
      source: directory,
      directory: next,
      upserts: [{ id: 'n:newer', type: 'tool', name: 'newer', text: 'blue steel' }],
      deletions: ['n:new'],
      textMergeRows: 0,
    });
    expect(await idIndex(next)).toMatchObject({ numIndexedRows: 300, numUnindexedRows: 0 });
  });

  it('is added by an update that changes no row, which rewrites no other index', async () => {
    const source = await tempDirectory();
    await writeLanceNodes({
      directory: source,
      nodes: nodes.map((node, i) => ({
        ...node,
        vectors: { vector: [Math.sin(i), Math.cos(i), (i % 5) / 5] },
      })),
      vectorColumns: [{ name: 'vector', dimensions: 3 }],
      vectorIndex: 'ivf_flat',
    });
    await dropIdIndex(source);
    const indexFiles = async (directory: string) =>
      (await readdir(path.join(directory, 'nodes.lance', '_indices'))).sort();
    const before = await indexFiles(source);
    const directory = path.join(await tempDirectory(), 'updated');
    await updateLanceNodes({ source, directory, upserts: [], deletions: [] });
    expect(await idIndex(directory)).toMatchObject({ numIndexedRows: 300, numUnindexedRows: 0 });
    // The id index is the one new index; the IVF and full-text indexes are the source's, as they were.
    const after = await indexFiles(directory);
    expect(after.filter((name) => !before.includes(name))).toHaveLength(1);
    expect(after).toEqual(expect.arrayContaining(before));
    expect(await idFilteredSearches(directory)).toEqual(await idFilteredSearches(source));
  });
});
