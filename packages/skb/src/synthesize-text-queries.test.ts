import { toySkb } from '@weft/core/test';
import type { SkbNode } from '@weft/spec';
import { afterEach, describe, expect, it } from 'vitest';
import { writeBundle } from './bundle-writer.ts';
import { openBundle } from './open-bundle.ts';
import { synthesizeTextQueries } from './synthesize-text-queries.ts';
import { temporaryDirectory } from './test-helpers.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((f) => f()));
});

async function bundleWith(nodes: SkbNode[]) {
  const dir = await temporaryDirectory();
  cleanups.push(dir.remove);
  const skb = toySkb();
  await writeBundle(dir.path, { ...skb, nodes: [...skb.nodes, ...nodes], edges: skb.edges });
  return openBundle(dir.path);
}

const described = (i: number): SkbNode => ({
  id: `x:${i}`,
  type: 'product',
  name: `Widget ${i}`,
  aliases: [`gizmo ${i}`],
  text: `a small widget gizmo made of brass and copper for measuring angle number ${i}; "an example"`,
});

describe('synthesizeTextQueries', () => {
  it('makes text-only queries from node descriptions without the node names, answered by the node', async () => {
    const bundle = await bundleWith(Array.from({ length: 30 }, (_, i) => described(i)));
    const queries = await synthesizeTextQueries(bundle, { count: 12, keep: 1 });
    expect(queries).toHaveLength(12);
    for (const q of queries) {
      expect(q.answers).toHaveLength(1);
      expect(q.query.toLowerCase()).not.toMatch(/\bwidget\b|\bgizmo\b/);
      // Only the first clause: the quoted example is gone.
      expect(q.query).not.toContain('example');
    }
    const x = queries.find((q) => q.answers[0]!.startsWith('x:'));
    // The number is part of the name ("Widget 7"), so it goes too.
    expect(x?.query).toBe('a small made of brass and copper for measuring angle number');
    expect(queries.filter((q) => q.split === 'val')).toHaveLength(3);
  });

  it('is deterministic for a seed, differs across seeds, and drops words when keep < 1', async () => {
    const bundle = await bundleWith(Array.from({ length: 40 }, (_, i) => described(i)));
    const a = await synthesizeTextQueries(bundle, { count: 10, seed: 1 });
    const b = await synthesizeTextQueries(bundle, { count: 10, seed: 1 });
    const c = await synthesizeTextQueries(bundle, { count: 10, seed: 2 });
    expect(a).toEqual(b);
    expect(a.map((q) => q.answers[0])).not.toEqual(c.map((q) => q.answers[0]));
    const full = await synthesizeTextQueries(bundle, { count: 10, seed: 1, keep: 1 });
    const words = (qs: typeof a) => qs.reduce((n, q) => n + q.query.split(' ').length, 0);
    expect(words(a)).toBeLessThan(words(full));
  });

  it('skips descriptions too short to be a query and keeps to the target types', async () => {
    const bundle = await bundleWith([
      { id: 'x:short', type: 'product', name: 'Thing', text: 'a thing' },
      described(1),
    ]);
    const queries = await synthesizeTextQueries(bundle, { count: 100, keep: 1 });
    expect(queries.map((q) => q.answers[0])).not.toContain('x:short');
    const targets = new Set(bundle.schema.targetTypes ?? []);
    if (targets.size > 0) {
      const types = new Map([...toySkb().nodes, described(1)].map((n) => [n.id, n.type]));
      for (const q of queries) expect(targets.has(types.get(q.answers[0]!)!)).toBe(true);
    }
  });
});
