import { describe, expect, it } from 'vitest';
import { EmbeddingWorkers } from './embedding-workers.ts';
import { LocalEmbeddingModel } from './local-embedding-model.ts';

const documents = [
  'a member of the genus Canis that has been domesticated by man',
  'a small domesticated feline kept as a pet that hunts mice',
  'a large wild cat of Africa and Asia with a spotted coat',
  'a musical instrument with strings played with a bow',
  'the fruit of the apple tree, round and red or green',
];

describe('EmbeddingWorkers', () => {
  it('embed on worker threads exactly as embedOne does, in order, on every thread', async () => {
    const model = await LocalEmbeddingModel.fit(() => documents, { dimensions: 4, minDocumentFrequency: 1 });
    const workers = new EmbeddingWorkers(model, 2);
    try {
      const [a, b] = await Promise.all([
        workers.embed(documents.slice(0, 3)),
        workers.embed(documents.slice(3)),
      ]);
      const got = [...a, ...b].map((v) => Array.from(v));
      expect(got).toEqual(documents.map((d) => Array.from(model.embedOne(d))));
      expect(await workers.embed([])).toEqual([]);
    } finally {
      await workers.close();
    }
  });
});
