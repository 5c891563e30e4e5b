import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CsrAdjacency, type RowReader } from './csr-adjacency.ts';
import { type KeepPlace, KeptStructures } from './kept-structures.ts';
import { NameIndex } from './name-index.ts';

const reader: RowReader = async (statement, params, onRow) => {
  if (statement.includes('collect(n.id)')) {
    onRow({ type: 'person', offsets: [0, 1], ids: ['ada', 'bela'] });
    return;
  }
  onRow({ type: 'knows', packed: [0 * params.size! + 1] });
};

/** Structures over one small graph, counting the scans of the "engine". */
function structures(place: () => KeepPlace | undefined) {
  const scans = { adjacency: 0, names: 0 };
  const kept = new KeptStructures(place, {
    adjacency: async () => {
      scans.adjacency++;
      return CsrAdjacency.load(reader, ['person'], ['knows']);
    },
    names: async () => {
      scans.names++;
      const index = new NameIndex();
      index.add({ id: 'ada', type: 'person', name: 'Ada Lovelace', aliases: [] });
      index.add({ id: 'bela', type: 'person', name: 'Béla Bartók', aliases: [] });
      return index;
    },
  });
  return { kept, scans };
}

/** One process's use: an expansion, an exact look-up, then a fuzzy one (which builds the postings). */
async function use(kept: KeptStructures) {
  const expanded = (await kept.loadAdjacency()).expand({ seeds: ['ada'], direction: 'out' });
  const index = await kept.nameIndex();
  const exact = index.lookup('Ada Lovelace', { limit: 3, fuzzy: false });
  kept.keepNames(index);
  await kept.settled();
  const fuzzy = index.lookup('Bela Bartok', { limit: 3, fuzzy: true });
  kept.keepNames(index);
  await kept.settled();
  return { expanded, exact, fuzzy };
}

describe('kept structures', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'weft-kept-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('scans once, keeps both for the next process, and scans again for another graph state', async () => {
    const directory = join(root, 'a', 'not-yet');
    const first = structures(() => ({ directory, stamp: 'build-1' }));
    const answers = await use(first.kept);
    expect(answers.expanded.map((n) => n.node)).toEqual(['bela']);
    expect(answers.fuzzy[0]?.id).toBe('bela');
    expect(first.scans).toEqual({ adjacency: 1, names: 1 });
    expect(first.kept.adjacencyInfo).toMatchObject({ source: 'engine', nodes: 2, edges: 1 });

    const second = structures(() => ({ directory, stamp: 'build-1' }));
    // Kept again after the fuzzy look-up: the postings come from the file too.
    expect((await second.kept.nameIndex()).gramsBuilt).toBe(true);
    expect(await use(second.kept)).toEqual(answers);
    expect(second.scans).toEqual({ adjacency: 0, names: 0 });
    expect(second.kept.adjacencyInfo?.source).toBe('file');

    const rebuilt = structures(() => ({ directory, stamp: 'build-2' }));
    expect(await use(rebuilt.kept)).toEqual(answers);
    expect(rebuilt.scans).toEqual({ adjacency: 1, names: 1 });
  });

  it('scans in every process without a place, and goes without where the folder cannot be written', async () => {
    const none = structures(() => undefined);
    await use(none.kept);
    await use(structures(() => undefined).kept);
    expect(none.scans).toEqual({ adjacency: 1, names: 1 });

    const file = join(root, 'a-file');
    await writeFile(file, 'not a folder');
    const blocked = () => ({ directory: join(file, 'kept'), stamp: 'build-1' });
    const first = structures(blocked);
    const answers = await use(first.kept);
    const second = structures(blocked);
    expect(await use(second.kept)).toEqual(answers);
    expect(second.scans).toEqual({ adjacency: 1, names: 1 });
  });
});
