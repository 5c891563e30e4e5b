import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CsrAdjacency, type RowReader } from './csr-adjacency.ts';
import { readAdjacencyFile, writeAdjacencyFile } from './csr-adjacency-file.ts';

/** A small graph as the two scans of `CsrAdjacency.load` return it; offset 3 is unused. */
function reader(ids: string[]): RowReader {
  return async (statement, params, onRow) => {
    if (statement.includes('collect(n.id)')) {
      onRow({ type: 'person', offsets: [0, 1], ids: ids.slice(0, 2) });
      onRow({ type: 'city', offsets: [2, 4], ids: ids.slice(2, 4) });
      return;
    }
    const size = params.size!;
    onRow({ type: 'knows', packed: [0 * size + 1, 1 * size + 0] });
    onRow({ type: 'lives_in', packed: [0 * size + 2, 1 * size + 4, 1 * size + 2] });
  };
}

const load = (ids: string[]) => CsrAdjacency.load(reader(ids), ['person', 'city'], ['knows', 'lives_in']);

describe('the adjacency file', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'weft-csr-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('reads back an adjacency that expands and samples as the scanned one', async () => {
    const scanned = await load(['ada', 'béla ✓', 'paris', 'rome']);
    const file = join(root, 'a.csr');
    expect(await writeAdjacencyFile(file, scanned, 'stamp-1')).toBe(true);
    const read = await readAdjacencyFile(file, 'stamp-1');
    expect(read).toBeDefined();
    expect(read!.toParts()).toEqual(scanned.toParts());
    expect(read!.nodeCount).toBe(4);
    const expansion = { seeds: ['ada', 'béla ✓', 'rome'], direction: 'both' } as const;
    expect(scanned.expand(expansion).length).toBeGreaterThan(0);
    expect(read!.expand(expansion)).toEqual(scanned.expand(expansion));
    const typed = {
      seeds: ['béla ✓'],
      direction: 'out',
      edgeTypes: ['lives_in'],
      nodeTypes: ['city'],
    } as const;
    expect(read!.expand(typed)).toEqual(scanned.expand(typed));
    expect(read!.sample({ count: 3, seed: 7 })).toEqual(scanned.sample({ count: 3, seed: 7 }));
  });

  it('is not used when its stamp is another, when it is missing or malformed', async () => {
    const file = join(root, 'b.csr');
    await writeAdjacencyFile(file, await load(['a', 'b', 'c', 'd']), 'stamp-1');
    expect(await readAdjacencyFile(file, 'stamp-2')).toBeUndefined();
    expect(await readAdjacencyFile(join(root, 'none.csr'), 'stamp-1')).toBeUndefined();
    await writeFile(join(root, 'bad.csr'), 'WEFTCSR1 not really');
    expect(await readAdjacencyFile(join(root, 'bad.csr'), 'stamp-1')).toBeUndefined();
  });

  it('is not written when an id holds the separator', async () => {
    const file = join(root, 'c.csr');
    expect(await writeAdjacencyFile(file, await load(['a\0b', 'b', 'c', 'd']), 's')).toBe(false);
    expect(await readAdjacencyFile(file, 's')).toBeUndefined();
  });
});
