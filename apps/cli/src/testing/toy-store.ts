import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FileArtifactStore } from '@weft/core';
import {
  InMemoryGraphStore,
  InMemoryTextIndex,
  InMemoryVectorIndex,
  MockEmbeddingModelV4,
  tokenize,
  toySkb,
} from '@weft/core/test';
import type { SkbQuery } from '@weft/spec';
import type { StoreOpener } from '../commands/command-deps.ts';
import type { OpenedStore } from '../store/store-manifest.ts';

/** Test support (not a test): in-memory stores over the toy SKB and a toy bundle on disk. */

const dimensions = 64;

/** A deterministic bag-of-words embedding: each token adds 1 to a hashed dimension. */
export function hashedEmbedding(text: string): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const token of tokenize(text)) {
    let hash = 2166136261;
    for (let i = 0; i < token.length; i++) hash = Math.imul(hash ^ token.charCodeAt(i), 16777619);
    vector[(hash >>> 0) % dimensions]! += 1;
  }
  return vector;
}

export function openToyStore(directory: string, options: { vectors?: boolean } = {}): OpenedStore {
  const skb = toySkb();
  const graph = new InMemoryGraphStore(skb);
  const text = new InMemoryTextIndex(skb.nodes);
  const withVectors = options.vectors ?? true;
  const vector = new InMemoryVectorIndex({
    records: skb.nodes.map((node) => ({
      id: node.id,
      type: node.type,
      vector: hashedEmbedding([node.name, ...(node.aliases ?? []), node.text].join(' ')),
    })),
    dimensions,
    embedderId: `test:hashed-${dimensions}`,
  });
  const embeddingModel = new MockEmbeddingModelV4({
    provider: 'test',
    modelId: `hashed-${dimensions}`,
    maxEmbeddingsPerCall: 64,
    doEmbed: async ({ values }) => ({ embeddings: values.map((v) => hashedEmbedding(v)), warnings: [] }),
  });
  let closed = 0;
  return {
    directory,
    manifest: {
      formatVersion: 1,
      createdAt: '2026-01-01T00:00:00.000Z',
      bundle: { path: directory, name: skb.schema.name },
      schema: skb.schema,
      counts: { nodes: skb.nodes.length, edges: skb.edges.length, nodesByType: {}, edgesByType: {} },
      graph: { provider: 'memory', path: 'graph' },
    },
    graph,
    context: {
      schema: skb.schema,
      graph,
      text,
      ...(withVectors ? { vector, embeddingModel } : {}),
      artifacts: new FileArtifactStore(path.join(directory, 'artifacts')),
    },
    async close() {
      closed++;
      if (closed > 1) throw new Error('store closed twice');
    },
  };
}

/** An opener that serves toy stores and records what it opened. */
export function toyOpener(options: { vectors?: boolean } = {}) {
  const opened: OpenedStore[] = [];
  let closed = 0;
  const open: StoreOpener = async (directory) => {
    const store = openToyStore(directory, options);
    opened.push(store);
    return {
      ...store,
      close: async () => {
        closed++;
        await store.close();
      },
    };
  };
  return { open, opened, closed: () => closed };
}

/** Toy queries with hand-checked answers (products of the toy SKB). */
export const toyQueries: SkbQuery[] = [
  { id: 'q1', query: 'telephoto zoom lens for birds', answers: ['p:nikkor'], split: 'test' },
  { id: 'q2', query: 'camera for wildlife triggered by motion', answers: ['p:trailcam'], split: 'test' },
  { id: 'q3', query: 'entry level dslr', answers: ['p:d3500'], split: 'test' },
  { id: 'q4', query: 'compact street photography camera', answers: ['p:q2'], split: 'test' },
  { id: 'q5', query: 'full frame cameras', answers: ['p:d850', 'p:q2'], split: 'test' },
  { id: 't1', query: 'lens with EF mount', answers: ['p:ef'], split: 'train' },
  { id: 't2', query: 'Canon camera for sports', answers: ['p:eos'], split: 'train' },
  { id: 'v1', query: 'Nikon zoom lens', answers: ['p:nikkor'], split: 'val' },
];

/** A temporary folder holding the toy bundle (schema, nodes, edges, queries/toy.jsonl) and a store folder. */
export async function toyWorkspace() {
  const root = await mkdtemp(path.join(os.tmpdir(), 'weft-cli-'));
  const bundle = path.join(root, 'bundle');
  await mkdir(path.join(bundle, 'queries'), { recursive: true });
  const skb = toySkb();
  const jsonl = (records: readonly unknown[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;
  await writeFile(path.join(bundle, 'schema.json'), JSON.stringify(skb.schema));
  await writeFile(path.join(bundle, 'nodes.jsonl'), jsonl(skb.nodes));
  await writeFile(path.join(bundle, 'edges.jsonl'), jsonl(skb.edges));
  await writeFile(
    path.join(bundle, 'queries', 'toy.jsonl'),
    `${toyQueries.map((q) => JSON.stringify(q)).join('\n')}\n`,
  );
  const db = path.join(root, 'store');
  await mkdir(db);
  return { root, bundle, db, cleanup: () => rm(root, { recursive: true, force: true }) };
}
