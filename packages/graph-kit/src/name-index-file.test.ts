import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toySkb } from '@weft/core/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NameIndex } from './name-index.ts';
import { readNameIndexFile, writeNameIndexFile } from './name-index-file.ts';

function toyIndex(): NameIndex {
  const index = new NameIndex();
  for (const node of toySkb().nodes)
    index.add({ id: node.id, type: node.type, name: node.name, aliases: node.aliases ?? [] });
  index.add({ id: 'a', type: 't1', name: 'Dog', aliases: ['domestic dog', 'Canis familiaris'] });
  index.add({ id: 'b', type: 't2', name: 'dog', aliases: [] });
  index.add({ id: 'd', type: 't1', name: 'Cat', aliases: ['dog', 'Ünïcode ✓'] });
  return index;
}

const queries = ['dog', 'CANIS FAMILIARIS', 'Nikn D850', 'Canon EOS', 'trail cam', 'ünïcode ✓', 'zzzqqq'];

function lookups(index: NameIndex) {
  return queries.flatMap((query) => [
    index.lookup(query, { limit: 5, fuzzy: true }),
    index.lookup(query, { limit: 5, fuzzy: false, nodeTypes: ['t1'] }),
  ]);
}

describe('the name index file', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'weft-names-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('reads back an index that answers every look-up as the built one, with its trigram postings', async () => {
    const built = toyIndex();
    const expected = lookups(built);
    expect(built.gramsBuilt).toBe(true);
    expect(expected.flat().some((match) => match.match === 'fuzzy')).toBe(true);
    const file = join(root, 'a.names');
    expect(await writeNameIndexFile(file, built, 'stamp-1')).toBe(true);
    const read = await readNameIndexFile(file, 'stamp-1');
    expect(read?.gramsBuilt).toBe(true);
    expect(read!.toState()).toEqual(built.toState());
    expect(lookups(read!)).toEqual(expected);
  });

  it('reads back an index saved before any fuzzy look-up; the postings are built when needed', async () => {
    const file = join(root, 'b.names');
    await writeNameIndexFile(file, toyIndex(), 'stamp-1');
    const read = await readNameIndexFile(file, 'stamp-1');
    expect(read?.gramsBuilt).toBe(false);
    expect(lookups(read!)).toEqual(lookups(toyIndex()));
  });

  it('takes new entries after it was read, as a built index does', async () => {
    const file = join(root, 'd.names');
    const built = toyIndex();
    lookups(built);
    await writeNameIndexFile(file, built, 's');
    const read = (await readNameIndexFile(file, 's'))!;
    for (const index of [built, read]) index.add({ id: 'e', type: 't2', name: 'Dogfish', aliases: ['dog'] });
    expect(lookups(read)).toEqual(lookups(built));
    expect(read.lookup('dogfsh', { limit: 3, fuzzy: true })[0]?.id).toBe('e');
  });

  it('is not used when its stamp is another, when it is missing or malformed', async () => {
    const file = join(root, 'c.names');
    await writeNameIndexFile(file, toyIndex(), 'stamp-1');
    expect(await readNameIndexFile(file, 'stamp-2')).toBeUndefined();
    expect(await readNameIndexFile(join(root, 'none'), 'stamp-1')).toBeUndefined();
    await writeFile(join(root, 'bad'), 'WEFTNAM1 not really');
    expect(await readNameIndexFile(join(root, 'bad'), 'stamp-1')).toBeUndefined();
  });

  it('answers a larger index from its saved hash tables as the built one', async () => {
    const built = new NameIndex();
    const words = ['alpha', 'Beta', 'gamma', 'délta', 'epsilon', 'zêta', 'eta', 'theta'];
    for (let i = 0; i < 3_000; i++) {
      const name = `${words[i % 8]} ${words[(i * 3) % 8]} ${i % 500}`;
      built.add({
        id: `n${i}`,
        type: `t${i % 3}`,
        name: i % 11 === 0 ? name.toUpperCase() : name,
        aliases: i % 5 === 0 ? [`alias ${i % 97}`, `A${i}`] : [],
      });
    }
    const queries = [
      'alpha gamma 12',
      'ALPHA GAMMA 12',
      'alias 3',
      'A55',
      'zêta délta 7',
      'zeta delta 7',
      'nothing',
    ];
    const look = (index: NameIndex) =>
      queries.flatMap((query) => [
        index.lookup(query, { limit: 10, fuzzy: true }),
        index.lookup(query, { limit: 3, fuzzy: false, nodeTypes: ['t1', 't2'] }),
      ]);
    const expected = look(built);
    expect(expected.flat().length).toBeGreaterThan(20);
    const file = join(root, 'big.names');
    await writeNameIndexFile(file, built, 's');
    const read = (await readNameIndexFile(file, 's'))!;
    expect(read.size).toBe(3_000);
    expect(look(read)).toEqual(expected);
    expect(read.toState()).toEqual(built.toState());
  });

  it('is not read in the first format, or truncated or corrupted: the store rebuilds it', async () => {
    const file = join(root, 'e.names');
    const built = toyIndex();
    lookups(built);
    await writeNameIndexFile(file, built, 's');
    const bytes = await readFile(file);
    expect(bytes.toString('latin1', 0, 8)).toBe('WEFTNAM2');
    const jsonLength = bytes.readUInt32LE(8);
    const header = JSON.parse(bytes.toString('utf8', 12, 12 + jsonLength)) as {
      sections: Record<string, [number, number, number]>;
    };
    const base = Math.ceil((12 + jsonLength) / 8) * 8;
    const corrupt = (section: string, index: number, value: number) => {
      const copy = Buffer.from(bytes);
      copy.writeUInt32LE(value, base + header.sections[section]![0] + index * 4);
      return copy;
    };
    const variants: [string, Buffer][] = [
      ['first format', Buffer.concat([Buffer.from('WEFTNAM1'), bytes.subarray(8)])],
      ['truncated', bytes.subarray(0, bytes.length - 8)],
      ['extended', Buffer.concat([bytes, Buffer.alloc(8)])],
      ['a label node', corrupt('labelNodeList', 0, 1_000_000)],
      ['a type', corrupt('typeOf', 1, 77)],
      ['a string offset', corrupt('names.start', 1, 1 << 30)],
      ['an alias list', corrupt('aliasStart', 1, 1 << 20)],
      ['a label slot', corrupt('labels.slots', 0, 1 << 20)],
    ];
    for (const [label, variant] of variants) {
      await writeFile(file, variant);
      expect(await readNameIndexFile(file, 's'), label).toBeUndefined();
    }
  });
});
