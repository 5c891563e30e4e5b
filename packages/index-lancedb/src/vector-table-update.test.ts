import { Table as ArrowTable } from 'apache-arrow';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lancedb } from './lancedb.ts';
import {
  type LanceNodeRecord,
  nodeSchema,
  openLanceVectorTable,
  toBatch,
  vectorTableName,
  writeLanceNodes,
} from './lance-node-table.ts';
import { LanceVectorIndex } from './lance-vector-index.ts';
import { tempDirectories } from './testing/temp-directories.ts';
import { readLanceNodes, updateLanceNodes, vectorMergeRows } from './update-lance-nodes.ts';

const directories = tempDirectories('weft-lance-vectors-');
afterAll(() => directories.removeAll());

const vectorOf = (i: number) => [Math.sin(i), Math.cos(i * 1.7), ((i % 11) - 5) / 5];
const node = (i: number, text = `item number ${i}`): LanceNodeRecord => ({
  id: `n:${i}`,
  type: i % 4 === 0 ? 'fruit' : 'tool',
  name: `item ${i}`,
  text,
  vectors: { vector: vectorOf(i) },
});
// 300 rows: an IVF_FLAT index of 17 partitions, all of which the default 96 probes open (exact).
const base = Array.from({ length: 300 }, (_, i) => node(i));
const vectorColumns = [{ name: 'vector', dimensions: 3 }];

async function write(nodes: readonly LanceNodeRecord[]): Promise<string> {
  const directory = await directories.make();
  await writeLanceNodes({ directory, nodes, vectorColumns, vectorIndex: 'ivf_flat', relationFields: true });
  return directory;
}

/** Every query's top 25 by the vector index of `directory`, with and without a type filter. */
async function rankings(directory: string, queries: readonly number[][]) {
  const index = await LanceVectorIndex.open(directory, { embedderId: 'test' });
  try {
    return [
      ...(await index.doSearch({ vectors: queries, limit: 25 })),
      ...(await index.doSearch({ vectors: queries, limit: 25, filter: { nodeTypes: ['fruit'] } })),
    ].map((hits) => hits.map((hit) => `${hit.id} ${hit.score.toFixed(3)}`));
  } finally {
    await index.close();
  }
}

async function vectorStats(directory: string) {
  const { db, table } = await openLanceVectorTable(directory);
  try {
    const ann = (await table.listIndices()).find((index) => index.columns.includes('vector'))!;
    return { separate: (await table.schema()).fields.length === 3, ...(await table.indexStats(ann.name)) };
  } finally {
    table.close();
    db.close();
  }
}

const queries = Array.from({ length: 12 }, (_, i) => vectorOf(1000 + i * 37));

describe('a table whose vectors are kept apart', () => {
  it('is how writeLanceNodes writes vectors: the node table has no vector column', async () => {
    const directory = await write(base);
    const db = await lancedb.connect(directory);
    try {
      expect((await db.tableNames()).sort()).toEqual(['nodes', vectorTableName('nodes')]);
      const nodes = await db.openTable('nodes');
      expect((await nodes.schema()).fields.map((field) => field.name)).not.toContain('vector');
      nodes.close();
    } finally {
      db.close();
    }
    expect(await vectorStats(directory)).toMatchObject({
      separate: true,
      indexType: 'IVF_FLAT',
      numIndexedRows: 300,
    });
  });

  it('takes an update without merging its index, and ranks as a table written with the changes', async () => {
    const source = await write(base);
    const changed = [node(3, 'item three, revised'), node(1000), node(1001), node(1002)];
    // n:5 keeps its vector (an upsert without vectors: its relation text changed, not its document).
    const { vectors: _, ...kept } = { ...node(5), relations: 'part of: item 6' };
    const deletions = ['n:8', 'n:9'];
    const directory = path.join(await directories.make(), 'updated');
    const result = await updateLanceNodes({ source, directory, upserts: [...changed, kept], deletions });
    expect(result.vectorsMerged).toBe(false);
    // The four new vectors wait outside the IVF index; searches scan them exactly.
    expect(await vectorStats(directory)).toMatchObject({ numUnindexedRows: 4 });
    const after = [
      ...base.filter((n) => !deletions.includes(n.id) && !changed.some((c) => c.id === n.id)),
      ...changed,
    ];
    const fresh = await write(after);
    expect(await rankings(directory, queries)).toEqual(await rankings(fresh, queries));
    // The kept row's vector is its old one: the search for it finds it first.
    const [hits] = await (async () => {
      const index = await LanceVectorIndex.open(directory, { embedderId: 'test' });
      try {
        return await index.doSearch({ vectors: [vectorOf(5)], limit: 1 });
      } finally {
        await index.close();
      }
    })();
    expect(hits![0]!.id).toBe('n:5');
    // The records read back carry no vectors: they are the vector table's.
    const read = await readLanceNodes(directory, ['n:5']);
    expect(read).toHaveLength(1);
    expect(read[0]!.vectors).toBeUndefined();
    expect(read[0]!.relations).toBe('part of: item 6');
  });

  it('merges the new rows into the index past vectorMergeRows, and ranks the same', async () => {
    const source = await write(base);
    // 40 new rows: more than a tenth of the 339 rows after the update.
    const added = Array.from({ length: 40 }, (_, i) => node(2000 + i));
    expect(vectorMergeRows(339)).toBeLessThan(40);
    const directory = path.join(await directories.make(), 'updated');
    const result = await updateLanceNodes({ source, directory, upserts: added, deletions: ['n:1'] });
    expect(result.vectorsMerged).toBe(true);
    expect(await vectorStats(directory)).toMatchObject({ numUnindexedRows: 0 });
    const fresh = await write([...base.filter((n) => n.id !== 'n:1'), ...added]);
    expect(await rankings(directory, queries)).toEqual(await rankings(fresh, queries));
  });

  it('refuses a new row without vectors, and changes nothing', async () => {
    const source = await write(base);
    const orphan = { id: 'n:new', type: 'tool', name: 'new', text: 'no vector' };
    const directory = path.join(await directories.make(), 'updated');
    await expect(
      updateLanceNodes({ source, directory, upserts: [orphan], deletions: [] }),
    ).rejects.toMatchObject({
      code: 'WEFT_BAD_INPUT',
      message: expect.stringMatching(/1 upserted row\(s\) carry no vectors/),
    });
    expect(await vectorStats(source)).toMatchObject({ numIndexedRows: 300, numUnindexedRows: 0 });
  });
});

describe('a table written with its vectors inline (before they were kept apart)', () => {
  /** The layout `writeLanceNodes` wrote before: one table, vectors among the text columns. */
  async function writeInline(nodes: readonly LanceNodeRecord[]): Promise<string> {
    const directory = await directories.make();
    const db = await lancedb.connect(directory);
    const schema = nodeSchema(vectorColumns, false);
    const table = await db.createTable(
      'nodes',
      new ArrowTable(schema, [toBatch(schema, nodes, vectorColumns, false)]),
    );
    await table.createIndex('doc', { config: lancedb.Index.fts({ withPosition: false }) });
    table.close();
    db.close();
    return directory;
  }

  it('is still searched, updated whole and read back with its vectors', async () => {
    const source = await writeInline(base);
    expect(await rankings(source, queries)).toEqual(await rankings(await write(base), queries));
    const directory = path.join(await directories.make(), 'updated');
    const result = await updateLanceNodes({ source, directory, upserts: [node(1000)], deletions: ['n:2'] });
    expect(result.vectorsMerged).toBe(false);
    const read = await readLanceNodes(directory, ['n:1000']);
    expect(Array.from(read[0]!.vectors!.vector!)).toEqual(vectorOf(1000).map(Math.fround));
    const fresh = await write([...base.filter((n) => n.id !== 'n:2'), node(1000)]);
    expect(await rankings(directory, queries)).toEqual(await rankings(fresh, queries));
  });
});
