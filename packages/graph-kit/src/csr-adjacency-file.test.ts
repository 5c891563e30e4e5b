import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
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
    // The id map is the file's hash table: every id found at its offset, the unused offset empty.
    for (const id of ['ada', 'béla ✓', 'paris', 'rome']) {
      expect(read!.offsetOf(id)).toBe(scanned.offsetOf(id));
      expect(read!.idAt(read!.offsetOf(id)!)).toBe(id);
    }
    for (const id of ['', 'nobody', 'ad', 'béla']) expect(read!.offsetOf(id)).toBeUndefined();
    expect(read!.idAt(3)).toBeUndefined();
    expect([...read!.nodeIds()]).toEqual(['ada', 'béla ✓', 'paris', 'rome']);
  });

  it('finds every id of a larger graph through the saved hash table', async () => {
    const count = 5_000;
    const ids = Array.from({ length: count }, (_, i) => (i % 7 === 0 ? `nœud-${i}` : `n${i * 7919}`));
    const big: RowReader = async (statement, params, onRow) => {
      if (statement.includes('collect(n.id)')) {
        onRow({ type: 'person', offsets: ids.map((_, i) => i), ids });
        return;
      }
      const size = params.size!;
      onRow({ type: 'knows', packed: ids.map((_, i) => i * size + ((i * 31) % count)) });
    };
    const scanned = await CsrAdjacency.load(big, ['person'], ['knows']);
    const file = join(root, 'big.csr');
    await writeAdjacencyFile(file, scanned, 's');
    const read = (await readAdjacencyFile(file, 's'))!;
    expect(read.nodeCount).toBe(count);
    for (let i = 0; i < count; i++) expect(read.offsetOf(ids[i]!)).toBe(i);
    expect(read.offsetOf('n1')).toBeUndefined();
    const seeds = ids.slice(0, 50);
    expect(read.expand({ seeds, direction: 'both' })).toEqual(scanned.expand({ seeds, direction: 'both' }));
  });

  it('is not read in the first format, or truncated, extended or corrupted: the store rebuilds it', async () => {
    const file = join(root, 'd.csr');
    await writeAdjacencyFile(file, await load(['a', 'b', 'c', 'd']), 's');
    const bytes = await readFile(file);
    expect(bytes.toString('latin1', 0, 8)).toBe('WEFTCSR2');
    const variants: [string, Buffer][] = [
      ['first format', Buffer.concat([Buffer.from('WEFTCSR1'), bytes.subarray(8)])],
      ['truncated', bytes.subarray(0, bytes.length - 4)],
      ['extended', Buffer.concat([bytes, Buffer.alloc(8)])],
      [
        'header length',
        Buffer.concat([bytes.subarray(0, 8), Buffer.from([255, 255, 0, 0]), bytes.subarray(12)]),
      ],
    ];
    const header = JSON.parse(bytes.toString('utf8', 12, 12 + bytes.readUInt32LE(8))) as {
      sections: Record<string, [number, number, number]>;
    };
    const base = Math.ceil((12 + bytes.readUInt32LE(8)) / 8) * 8;
    const corrupt = (section: string, index: number, value: number) => {
      const copy = Buffer.from(bytes);
      const [at, , width] = header.sections[section]!;
      if (width === 4) copy.writeUInt32LE(value, base + at + index * 4);
      else copy[base + at + index] = value;
      return copy;
    };
    variants.push(['an edge offset', corrupt('outStart', 1, 1000)]);
    variants.push(['an id offset', corrupt('idStart', 2, 0)]);
    variants.push(['a hash slot', corrupt('idSlots', header.sections.idSlots![1] - 1, 99)]);
    const full = Buffer.from(bytes);
    const [slotsAt, slotCount] = header.sections.idSlots!;
    for (let i = 0; i < slotCount; i++) full.writeUInt32LE(1, base + slotsAt + i * 4);
    variants.push(['a full hash table', full]);
    for (const [label, variant] of variants) {
      await writeFile(file, variant);
      expect(await readAdjacencyFile(file, 's'), label).toBeUndefined();
    }
  });

  it('is not used when its stamp is another, when it is missing or malformed', async () => {
    const file = join(root, 'b.csr');
    await writeAdjacencyFile(file, await load(['a', 'b', 'c', 'd']), 'stamp-1');
    expect(await readAdjacencyFile(file, 'stamp-2')).toBeUndefined();
    expect(await readAdjacencyFile(join(root, 'none.csr'), 'stamp-1')).toBeUndefined();
    await writeFile(join(root, 'bad.csr'), 'WEFTCSR1 not really');
    expect(await readAdjacencyFile(join(root, 'bad.csr'), 'stamp-1')).toBeUndefined();
  });

  it('keeps ids that hold a NUL (they are length-delimited)', async () => {
    const file = join(root, 'c.csr');
    const scanned = await load(['a\0b', 'b', 'c', 'd']);
    expect(await writeAdjacencyFile(file, scanned, 's')).toBe(true);
    const read = await readAdjacencyFile(file, 's');
    expect(read!.toParts()).toEqual(scanned.toParts());
    expect(read!.offsetOf('a\0b')).toBe(0);
    expect(read!.offsetOf('a')).toBeUndefined();
  });
});
