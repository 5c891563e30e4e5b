// The toy bundle the examples' tests and the release check run the examples on: the camera shop of
// `@weft/core/test` (15 nodes) as an SKB bundle, with a query set split into train, val and test so
// that training has something to fit. Building a store from it takes a second, not a minute.
//
//   node toy-bundle.ts <dir>
import { toySkb } from '@weft/core/test';
import { writeBundle } from '@weft/skb';
import type { SkbQuery } from '@weft/spec';

/** Hand-checked questions about the shop's products (set `toy`). */
export const toyQueries: readonly SkbQuery[] = [
  { id: 't1', query: 'lens with EF mount', answers: ['p:ef'], split: 'train' },
  { id: 't2', query: 'Canon camera for sports', answers: ['p:eos'], split: 'train' },
  { id: 't3', query: 'Nikon lens for birds', answers: ['p:nikkor'], split: 'train' },
  { id: 't4', query: 'waterproof camera for wildlife at night', answers: ['p:trailcam'], split: 'train' },
  { id: 't5', query: 'light and simple Nikon camera', answers: ['p:d3500'], split: 'train' },
  { id: 't6', query: 'zoom lens that works with the Canon EOS 90D', answers: ['p:ef'], split: 'train' },
  { id: 't7', query: 'full-frame camera made by Leica', answers: ['p:q2'], split: 'train' },
  { id: 't8', query: 'rugged weather sealed DSLR', answers: ['p:d850'], split: 'train' },
  { id: 'v1', query: 'Nikon zoom lens', answers: ['p:nikkor'], split: 'val' },
  { id: 'v2', query: 'Canon telephoto zoom', answers: ['p:ef'], split: 'val' },
  { id: 'v3', query: 'camera for street photography', answers: ['p:q2'], split: 'val' },
  { id: 'q1', query: 'telephoto zoom lens for birds', answers: ['p:nikkor'], split: 'test' },
  { id: 'q2', query: 'camera for wildlife triggered by motion', answers: ['p:trailcam'], split: 'test' },
  { id: 'q3', query: 'entry level dslr', answers: ['p:d3500'], split: 'test' },
  { id: 'q4', query: 'compact street photography camera', answers: ['p:q2'], split: 'test' },
  { id: 'q5', query: 'full frame cameras', answers: ['p:d850', 'p:q2'], split: 'test' },
];

/** Writes the toy bundle (schema.json, nodes, edges, queries/toy.jsonl) into `directory`. */
export async function writeToyBundle(directory: string): Promise<void> {
  const skb = toySkb();
  await writeBundle(directory, {
    schema: skb.schema,
    nodes: skb.nodes,
    edges: skb.edges,
    queries: { toy: toyQueries },
  });
}

if (import.meta.main) {
  const directory = process.argv[2];
  if (!directory) {
    console.error('usage: node toy-bundle.ts <dir>');
    process.exit(2);
  }
  await writeToyBundle(directory);
  console.log(`toy bundle written to ${directory}`);
}
