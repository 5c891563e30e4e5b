// An update leaves its few new rows outside the full-text indexes (`textMergeRows`): LanceDB scans
// them beside the indexes, and merges them in only once enough have gathered (issue 48).
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type LanceNodeRecord, openLanceTable, writeLanceNodes } from './lance-node-table.ts';
import { LanceTextIndex } from './lance-text-index.ts';
import { tempDirectories } from './testing/temp-directories.ts';
import { textMergeRows, updateLanceNodes } from './update-lance-nodes.ts';

const directories = tempDirectories('weft-lance-text-update-');
afterAll(() => directories.removeAll());

const words = (
  'harbor lantern meadow copper thistle granite orchard falcon river basalt willow ember quarry ' +
  'cobalt saffron tundra juniper marble beacon hollow prism cinder glacier fennel walnut'
).split(' ');
/** `count` words for row `i`, drawn by a fixed hash (varied lengths and overlaps, few exact ties). */
const wordsOf = (i: number, salt: number, count: number) =>
  Array.from(
    { length: count },
    (_, k) => words[(((i + 1) * 2_654_435_761 + salt * 97 + k * 40_503) % 4_093) % words.length]!,
  );
const node = (i: number, text?: string): LanceNodeRecord => ({
  id: `n:${i}`,
  type: i % 3 === 0 ? 'paper' : 'note',
  name: `${wordsOf(i, 1, 2).join(' ')} ${i}`,
  text: text ?? `notes on ${wordsOf(i, 2, 2 + (i % 9)).join(' ')}`,
  relations: `cites: ${wordsOf(i, 3, 1 + (i % 4)).join(' ')}`,
});
// 1,000 rows: `textMergeRows` lets 10 of them wait outside the indexes.
const base = Array.from({ length: 1_000 }, (_, i) => node(i));

async function write(nodes: readonly LanceNodeRecord[]): Promise<string> {
  const directory = await directories.make();
  await writeLanceNodes({ directory, nodes, relationFields: true });
  return directory;
}

interface Hit {
  readonly id: string;
  readonly score: number;
}

/** Each query's hits in each field, top 20. */
async function rankings(directory: string, queries: readonly string[]): Promise<Hit[][]> {
  const index = await LanceTextIndex.open(directory);
  try {
    const out: Hit[][] = [];
    for (const field of ['document', 'relations', 'combined'])
      for (const hits of await index.doSearch({ queries, limit: 20, field }))
        out.push(hits.map(({ id, score }) => ({ id, score })));
    return out;
  } finally {
    await index.close();
  }
}

/**
 * The ids of the hits scored 5 % or more above the last one, in order of score (ties by id): the
 * rows whose place does not depend on ties at the cut, nor on score moves of a few per mille.
 */
function clearlyAhead(hits: readonly Hit[]): string[] {
  const last = hits.at(-1)?.score ?? 0;
  return hits
    .filter((hit) => hit.score > last * 1.05)
    .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id))
    .map((hit) => hit.id);
}

async function unindexed(directory: string): Promise<number> {
  const { db, table } = await openLanceTable(directory);
  try {
    return (await table.indexStats('doc_idx'))?.numUnindexedRows ?? -1;
  } finally {
    table.close();
    db.close();
  }
}

describe('a text table update below textMergeRows', () => {
  const changed = [
    node(3, 'glimmerstone lattices, revised'),
    node(4, 'glimmerstone again'),
    node(2000, 'glimmerstone'),
    node(2001, 'a copper glimmerstone'),
  ];
  const deletions = ['n:8', 'n:9'];
  const after = [
    ...base.filter((n) => !deletions.includes(n.id) && !changed.some((c) => c.id === n.id)),
    ...changed,
  ];

  it('leaves the new rows out of the indexes, finds them, and ranks as a table written with the changes', async () => {
    expect(textMergeRows(1_000)).toBe(10);
    const source = await write(base);
    const directory = path.join(await directories.make(), 'updated');
    const result = await updateLanceNodes({ source, directory, upserts: changed, deletions });
    expect(result.textMerged).toBe(false);
    expect(result.rows).toBe(after.length);
    expect(await unindexed(directory)).toBe(changed.length);
    const index = await LanceTextIndex.open(directory);
    try {
      // The new rows are found; the deleted ones and the changed ones' old text are not.
      const [glimmer, deleted, old] = await index.doSearch({
        queries: ['glimmerstone', '8 9', 'notes'],
        limit: 2_000,
      });
      expect(glimmer!.map((hit) => hit.id).sort()).toEqual(['n:2000', 'n:2001', 'n:3', 'n:4']);
      expect(deleted!.map((hit) => hit.id)).not.toContain('n:8');
      expect(deleted!.map((hit) => hit.id)).not.toContain('n:9');
      // Every base row's text says "notes"; the changed rows' new texts do not.
      expect(old).toHaveLength(after.length - changed.length);
      expect(old!.map((hit) => hit.id)).not.toContain('n:3');
      // A type filter applies to them too.
      const [papers] = await index.doSearch({
        queries: ['glimmerstone'],
        limit: 50,
        filter: { nodeTypes: ['paper'] },
      });
      expect(papers!.map((hit) => hit.id).sort()).toEqual(['n:2001', 'n:3']);
    } finally {
      await index.close();
    }
    // Against a table written with the changes: the same rows in the same order, scores within a few
    // per cent (the indexes' BM25 statistics count neither the new rows nor yet drop the deleted).
    const fresh = await write(after);
    const queries = [
      'glimmerstone',
      'copper meadow',
      'harbor lantern 12',
      'thistle granite river',
      'prism ember walnut',
    ];
    const [updated, rebuilt] = [await rankings(directory, queries), await rankings(fresh, queries)];
    expect(updated.map(clearlyAhead)).toEqual(rebuilt.map(clearlyAhead));
    expect(updated.flatMap(clearlyAhead).length).toBeGreaterThan(10);
    const freshScores = new Map(
      rebuilt.flatMap((hits, q) => hits.map((hit) => [`${q} ${hit.id}`, hit.score])),
    );
    for (const [q, hits] of updated.entries())
      for (const hit of hits) {
        const score = freshScores.get(`${q} ${hit.id}`);
        if (score !== undefined) expect(Math.abs(hit.score - score) / score).toBeLessThan(0.05);
      }
  });

  it('merges them in past textMergeRows, and then ranks as a table written with the changes', async () => {
    const source = await write(base);
    const directory = path.join(await directories.make(), 'updated');
    const result = await updateLanceNodes({
      source,
      directory,
      upserts: changed,
      deletions,
      textMergeRows: 0,
    });
    expect(result.textMerged).toBe(true);
    expect(await unindexed(directory)).toBe(0);
    // A second update on top, below the threshold again, leaves its row out.
    const next = path.join(await directories.make(), 'next');
    const again = await updateLanceNodes({
      source: directory,
      directory: next,
      upserts: [node(2002)],
      deletions: [],
    });
    expect(again.textMerged).toBe(false);
    expect(await unindexed(next)).toBe(1);
  });
});
