import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { searchText, searchVector } from '@weft/kit';
import { toySkb } from '@weft/core/test';
import { afterAll, describe, expect, it } from 'vitest';
import { buildIndexes, openIndexes } from './store-indexes.ts';

const skb = toySkb();
const directories: string[] = [];
async function store(): Promise<string> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'weft-store-'));
  directories.push(directory);
  await mkdir(path.join(directory, 'index'));
  return directory;
}
afterAll(async () => {
  await Promise.all(directories.map((d) => rm(d, { recursive: true, force: true })));
});

async function* nodes() {
  yield* skb.nodes;
}

describe('buildIndexes / openIndexes', () => {
  it('builds BM25 + vector indexes with the local embedder and opens them for querying', async () => {
    const directory = await store();
    const phases = new Set<string>();
    const manifest = await buildIndexes({
      directory: path.join(directory, 'index'),
      schema: skb.schema,
      nodes,
      nodeCount: skb.nodes.length,
      embedder: 'local',
      onProgress: (phase) => phases.add(phase),
    });
    expect(manifest?.text.provider).toBe('lancedb');
    expect(manifest?.vector?.embedder).toBe('local:tfidf-lsa-256');
    expect(manifest?.vector?.embedderSpec).toBe('local');
    expect(phases).toContain('fit-embedder');
    const opened = await openIndexes(directory, manifest);
    try {
      const [text] = await searchText(opened.text, ['telephoto zoom lens'], { limit: 3 });
      expect(text!.map((h) => h.id)).toContain('p:ef');
      const [dense] = await searchVector(opened.vector!, opened.embeddingModel!, ['telephoto zoom lens'], {
        limit: 3,
      });
      expect(dense!.length).toBeGreaterThan(0);
      expect(dense![0]!.score).toBeGreaterThan(0);
    } finally {
      await opened.close();
    }
    // Same embedder named explicitly: fine. Another one: refused before anything is embedded.
    await (await openIndexes(directory, manifest, { queryEmbedder: 'local' })).close();
    await expect(
      openIndexes(directory, manifest, { queryEmbedder: 'openai:text-embedding-3-small' }),
    ).rejects.toMatchObject({
      code: 'WEFT_EMBEDDER_MISMATCH',
    });
  });

  it('refuses a store built with a hosted embedder when queried with the local one', async () => {
    const directory = await store();
    const manifest = {
      text: { provider: 'lancedb', path: 'index/lance' },
      vector: {
        provider: 'lancedb',
        path: 'index/lance',
        embedder: 'openai.embedding:text-embedding-3-small',
        dimensions: 1536,
        embedderSpec: 'openai:text-embedding-3-small',
      },
    };
    await expect(openIndexes(directory, manifest, { queryEmbedder: 'local' })).rejects.toMatchObject({
      code: 'WEFT_EMBEDDER_MISMATCH',
    });
    await expect(openIndexes(directory, undefined)).rejects.toMatchObject({ code: 'WEFT_UNSUPPORTED' });
  });

  it('rejects a malformed --embedder value as bad input', async () => {
    const directory = await store();
    await expect(
      buildIndexes({
        directory: path.join(directory, 'index'),
        schema: skb.schema,
        nodes,
        nodeCount: skb.nodes.length,
        embedder: 'cohere:x',
      }),
    ).rejects.toMatchObject({ code: 'WEFT_BAD_INPUT' });
  });
});
