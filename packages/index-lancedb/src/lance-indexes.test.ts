import { runTextIndexSuite, runVectorIndexSuite } from '@weft/conformance';
import { afterAll } from 'vitest';
import { writeLanceNodes } from './lance-node-table.ts';
import { LanceTextIndex } from './lance-text-index.ts';
import { LanceVectorIndex } from './lance-vector-index.ts';
import { tempDirectories } from './testing/temp-directories.ts';

const directories = tempDirectories('weft-lance-');
const tempDirectory = () => directories.make();
afterAll(() => directories.removeAll());

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
