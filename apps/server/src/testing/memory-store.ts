import { toyContext, toySkb } from '@weft/core/test';
import type { ServedStore } from '../create-app.ts';

/** Test support: the toy SKB as a served store, in memory (no engines), for in-process `app.request`. */
export function memoryStore(): ServedStore {
  const skb = toySkb();
  const context = toyContext();
  return {
    context,
    graph: context.graph,
    manifest: {
      formatVersion: 1,
      createdAt: '2026-01-01T00:00:00.000Z',
      bundle: { path: 'toy', name: skb.schema.name },
      schema: skb.schema,
      counts: { nodes: skb.nodes.length, edges: skb.edges.length, nodesByType: {}, edgesByType: {} },
      graph: { provider: 'memory', path: 'graph' },
    },
  };
}
