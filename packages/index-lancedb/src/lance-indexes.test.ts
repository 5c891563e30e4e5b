import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runTextIndexSuite, runVectorIndexSuite } from '@weft/conformance';
import { afterAll } from 'vitest';
import { writeLanceNodes } from './lance-node-table.ts';
import { LanceTextIndex } from './lance-text-index.ts';
import { LanceVectorIndex } from './lance-vector-index.ts';

const directories: string[] = [];
async function tempDirectory(): Promise<string> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'weft-lance-'));
  directories.push(directory);
  return directory;
}
afterAll(async () => {
  await Promise.all(directories.map((d) => rm(d, { recursive: true, force: true })));
});

runTextIndexSuite({
  name: 'LanceTextIndex',
  async create(nodes) {
    const directory = await tempDirectory();
    await writeLanceNodes({ directory, nodes });
    return LanceTextIndex.open(directory);
  },
});

runVectorIndexSuite({
  name: 'LanceVectorIndex',
  async create({ records, dimensions, embedderId }) {
    const directory = await tempDirectory();
    await writeLanceNodes({
      directory,
      nodes: records.map((r) => ({
        id: r.id,
        type: r.type,
        name: r.id,
        text: '',
        vectors: { vector: r.vector },
      })),
      vectorColumns: [{ name: 'vector', dimensions }],
    });
    return LanceVectorIndex.open(directory, { embedderId });
  },
});
