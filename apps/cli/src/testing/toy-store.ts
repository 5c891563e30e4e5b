import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FileArtifactStore } from '@weft/core';
import { toyContext, toySkb } from '@weft/core/test';
import type { SkbQuery } from '@weft/spec';
import type { OpenedStore } from '@weft/store';
import type { StoreOpener } from '../commands/command-deps.ts';

/** Test support (not a test): in-memory stores over the toy SKB and a toy bundle on disk. */

export function openToyStore(directory: string, options: { vectors?: boolean } = {}): OpenedStore {
  const skb = toySkb();
  const artifacts = new FileArtifactStore(path.join(directory, 'artifacts'));
  const context = toyContext({ ...options, artifacts });
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
    graph: context.graph,
    artifacts,
    context,
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
