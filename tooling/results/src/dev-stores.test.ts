import { InMemoryGraphStore, InMemoryTextIndex, toySkb } from '@weft/core/test';
import { describe, expect, it } from 'vitest';
import { type DevBundle, DevGraphStore, DevTextIndex } from './dev-stores.ts';

describe('dev stores agree with the reference stores', () => {
  const skb = toySkb();
  const bundle: DevBundle = { ...skb, nodes: [...skb.nodes], edges: [...skb.edges], queries: () => [] };

  it('BM25 scores, with and without an ids filter', async () => {
    const dev = new DevTextIndex(bundle.nodes);
    const reference = new InMemoryTextIndex(skb.nodes);
    for (const filter of [undefined, { ids: ['p:d850', 'p:eos', 'p:q2'] }, { nodeTypes: ['brand'] }]) {
      const options = {
        queries: ['wildlife lens', 'Nikon cameras'],
        limit: 10,
        ...(filter ? { filter } : {}),
      };
      const [a, b] = [await dev.doSearch(options), await reference.doSearch(options)];
      expect(a.map((l) => l.map((h) => h.id))).toEqual(b.map((l) => l.map((h) => h.id)));
      expect(a.flat().map((h) => h.score.toFixed(9))).toEqual(b.flat().map((h) => h.score.toFixed(9)));
    }
  });

  it('exact and case-insensitive look-up and neighbours', async () => {
    const dev = new DevGraphStore(bundle);
    const reference = new InMemoryGraphStore(skb);
    const names = ['Nikon', 'leitz', 'dslr cameras'];
    const strip = (m: { id: string; match: string }[][]) => m.map((l) => l.map((x) => `${x.id}:${x.match}`));
    expect(strip(await dev.doLookup(names, { fuzzy: false }))).toEqual(
      strip(await reference.doLookup(names, { fuzzy: false })),
    );
    const options = { seeds: ['b:nikon'], direction: 'in' as const, edgeTypes: ['made_by'] };
    const ids = (n: { node: string }[]) => n.map((x) => x.node).sort();
    expect(ids(await dev.doNeighbors(options))).toEqual(ids(await reference.doNeighbors(options)));
  });
});
