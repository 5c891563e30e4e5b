import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { toySkb } from '@weft/core/test';
import { cosineSimilarity, embed, embedMany } from 'ai';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalEmbeddingModel } from './local-embedding-model.ts';
import { openLocalEmbeddingModel } from './query-embedding-model.ts';

const documents = toySkb().nodes.map((n) => [n.name, ...(n.aliases ?? []), n.text].join(' ; '));
const options = { dimensions: 8, minDocumentFrequency: 1 };
const directories: string[] = [];
afterAll(async () => {
  await Promise.all(directories.map((d) => rm(d, { recursive: true, force: true })));
});

describe('LocalEmbeddingModel', () => {
  it('implements the AI SDK embedding model v4: embedMany and embed work with it', async () => {
    const model = await LocalEmbeddingModel.fit(() => documents, options);
    expect(model.specificationVersion).toBe('v4');
    expect(`${model.provider}:${model.modelId}`).toBe('local:tfidf-lsa-8');
    const { embeddings } = await embedMany({ model, values: ['telephoto zoom lens', 'night vision camera'] });
    expect(embeddings).toHaveLength(2);
    for (const e of embeddings) {
      expect(e).toHaveLength(8);
      expect(Math.hypot(...e)).toBeCloseTo(1, 5);
    }
    const { embedding } = await embed({ model, value: 'telephoto zoom lens' });
    expect(embedding).toEqual(embeddings[0]);
  });

  it('places a text nearest to the document it comes from', async () => {
    const model = await LocalEmbeddingModel.fit(() => documents, { ...options, dimensions: 16 });
    const { embeddings } = await embedMany({ model, values: documents });
    let correct = 0;
    embeddings.forEach((e, i) => {
      const sims = embeddings.map((other) => cosineSimilarity(e, other));
      if (sims.indexOf(Math.max(...sims)) === i) correct++;
    });
    expect(correct).toBeGreaterThanOrEqual(documents.length - 1);
    const [query] = (await embedMany({ model, values: ['telephoto lens'] })).embeddings;
    const ranked = embeddings
      .map((e, i) => ({ i, s: cosineSimilarity(query!, e) }))
      .sort((a, b) => b.s - a.s);
    expect(documents[ranked[0]!.i]).toMatch(/telephoto/i);
  });

  it('is deterministic and survives save/load', async () => {
    const a = await LocalEmbeddingModel.fit(() => documents, options);
    const b = await LocalEmbeddingModel.fit(() => documents, options);
    expect(Array.from(a.embedOne('canon camera'))).toEqual(Array.from(b.embedOne('canon camera')));
    const directory = await mkdtemp(path.join(os.tmpdir(), 'weft-embed-'));
    directories.push(directory);
    await a.save(directory);
    const loaded = await LocalEmbeddingModel.load(directory);
    expect(loaded.modelId).toBe(a.modelId);
    expect(Array.from(loaded.embedOne('canon camera'))).toEqual(Array.from(a.embedOne('canon camera')));
  });

  it('returns a zero vector for text with no known feature, and never throws on odd input', async () => {
    const model = await LocalEmbeddingModel.fit(() => documents, options);
    expect(Array.from(model.embedOne('§§§ ??? ')).every((x) => x === 0)).toBe(true);
    expect(model.embedOne('').length).toBe(8);
    expect(model.embedOne('"quoted" (paren) -minus * 相机').length).toBe(8);
  });

  it('refuses an empty corpus and a missing model directory with Weft errors', async () => {
    await expect(LocalEmbeddingModel.fit(() => [], options)).rejects.toMatchObject({
      code: 'WEFT_BAD_INPUT',
    });
    await expect(
      LocalEmbeddingModel.load(path.join(os.tmpdir(), 'weft-no-such-embedder')),
    ).rejects.toMatchObject({ code: 'WEFT_NOT_FOUND' });
  });

  it('opened for later, reads the saved model at the first embedding call and embeds as it does', async () => {
    const a = await LocalEmbeddingModel.fit(() => documents, options);
    const directory = await mkdtemp(path.join(os.tmpdir(), 'weft-embed-'));
    directories.push(directory);
    await a.save(directory);
    const deferred = await openLocalEmbeddingModel(directory, 8);
    expect(`${deferred.provider}:${deferred.modelId}`).toBe(`${a.provider}:${a.modelId}`);
    const texts = [...documents, 'canon camera', 'telephoto zoom lens', '§§§', ''];
    const { embeddings } = await embedMany({ model: deferred, values: texts });
    expect(embeddings).toEqual(texts.map((text) => Array.from(a.embedOne(text))));

    // Read at the first call: a file damaged after opening is what that call reports.
    const damaged = await openLocalEmbeddingModel(directory, 8);
    await writeFile(path.join(directory, 'local-embedder.json'), '{"format":"other"}');
    await expect(embed({ model: damaged, value: 'canon' })).rejects.toMatchObject({
      code: 'WEFT_UNSUPPORTED',
    });
    await a.save(directory);
    const projection = path.join(directory, 'local-embedder.f32');
    await truncate(projection, 12);
    await expect(
      embed({ model: await openLocalEmbeddingModel(directory, 8), value: 'canon' }),
    ).rejects.toMatchObject({
      code: 'WEFT_STORE_FAILED',
    });
    await a.save(directory);
    const wrongSize = await openLocalEmbeddingModel(directory, 16);
    expect(wrongSize.modelId).toBe('tfidf-lsa-16');
    await expect(embed({ model: wrongSize, value: 'canon' })).rejects.toMatchObject({
      code: 'WEFT_EMBEDDER_MISMATCH',
    });
    await expect(
      openLocalEmbeddingModel(path.join(os.tmpdir(), 'weft-no-such-embedder'), 8),
    ).rejects.toMatchObject({ code: 'WEFT_NOT_FOUND' });
  });
});
