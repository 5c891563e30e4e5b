import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SkbEdge, SkbNode, SkbSchema } from '@weft/spec';
import { buildKuzuGraph } from './build-kuzu-graph.ts';
import { KuzuGraphStore } from './kuzu-graph-store.ts';

/** Builds a real Kùzu graph in a temp dir and opens it; `dispose` closes it and removes the dir. */
export async function temporaryGraph(skb: {
  schema: SkbSchema;
  nodes: readonly SkbNode[];
  edges: readonly SkbEdge[];
}) {
  const root = await mkdtemp(join(tmpdir(), 'weft-kuzu-'));
  const directory = join(root, 'graph');
  await buildKuzuGraph({ directory, schema: skb.schema, nodes: skb.nodes, edges: skb.edges });
  const store = await KuzuGraphStore.open(directory);
  return {
    root,
    directory,
    store,
    dispose: async () => {
      await store.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}
