import { toyContext, toySkb } from '@weft/core/test';
import { describe, expect, it } from 'vitest';
import { question, structuralQuestion, synthesizeQueries, typeWord } from './synthesize-queries.ts';

describe('synthesizeQueries', () => {
  it('writes an before a phrase that starts with a vowel ("an ingredient"), a before the rest', () => {
    expect(question(2, 'ingredient of Pesto', 'sold fresh')).toBe(
      'I am looking for an ingredient of Pesto, sold fresh',
    );
    expect(structuralQuestion(2, 'ingredient of Pesto')).toBe('I am looking for an ingredient of Pesto');
    expect(structuralQuestion(2, 'product made by Nikon')).toBe('I am looking for a product made by Nikon');
  });

  const context = toyContext();
  const skb = toySkb();
  const neighbours = (id: string) =>
    new Set(skb.edges.flatMap((e) => (e.src === id ? [e.dst] : e.dst === id ? [e.src] : [])));

  it('makes relational queries whose every answer is next to the named node, and text-only ones', async () => {
    const { hybrid, text } = await synthesizeQueries(context, {
      hybrid: 5,
      text: 3,
      seed: 3,
      maxCandidates: 50,
    });
    expect(hybrid.length).toBeGreaterThan(0);
    expect(text.length).toBeGreaterThan(0);
    for (const query of hybrid) {
      const anchor = (query.meta?.anchors as string[] | undefined)?.[0] ?? '';
      const node = query.meta?.node as string;
      expect(query.answers).toContain(node);
      for (const answer of query.answers) expect(neighbours(anchor).has(answer)).toBe(true);
      // The named node is in the question; the answer's own name is not.
      const anchorName = skb.nodes.find((n) => n.id === anchor)!.name;
      expect(query.query).toContain(anchorName);
      expect(query.query).not.toContain(skb.nodes.find((n) => n.id === node)!.name);
      expect(['train', 'val', 'test']).toContain(query.split);
    }
    for (const query of text) expect(query.answers).toHaveLength(1);
    // Only the schema's target types are answers.
    const targets = new Set(skb.schema.targetTypes);
    for (const query of [...hybrid, ...text])
      for (const answer of query.answers)
        expect(targets.has(skb.nodes.find((n) => n.id === answer)!.type)).toBe(true);
  });

  it('asks about a narrow relation by itself too, with every node it reaches as gold', async () => {
    const { hybrid } = await synthesizeQueries(context, { hybrid: 12, text: 0, seed: 1, maxCandidates: 50 });
    const structural = hybrid.filter((q) => q.meta?.requirement === undefined);
    expect(structural.length).toBeGreaterThan(0);
    expect(structural.length).toBeLessThan(hybrid.length);
    for (const query of structural) {
      const anchor = (query.meta?.anchors as string[] | undefined)?.[0] ?? '';
      const [edgeType, fromAnchor] = String(query.meta?.relation).split('|');
      const type = skb.nodes.find((n) => n.id === query.meta?.node)!.type;
      const reached = skb.edges
        .filter((e) => e.type === edgeType && (fromAnchor === 'out' ? e.src === anchor : e.dst === anchor))
        .map((e) => (fromAnchor === 'out' ? e.dst : e.src))
        .filter((id) => skb.nodes.find((n) => n.id === id)!.type === type);
      expect(query.answers).toEqual([...new Set(reached)].sort());
      expect(query.query).toContain(skb.nodes.find((n) => n.id === anchor)!.name);
    }
  });

  it('describes the related node by words of its own text that find it, instead of naming it', async () => {
    const { hybrid, described } = await synthesizeQueries(context, {
      hybrid: 2,
      described: 4,
      text: 0,
      seed: 3,
      maxCandidates: 50,
    });
    expect(described.length).toBeGreaterThan(0);
    expect(hybrid.length).toBeGreaterThan(0);
    for (const query of described) {
      const anchorId = (query.meta?.anchors as string[] | undefined)?.[0];
      const anchor = skb.nodes.find((n) => n.id === anchorId)!;
      expect(query.meta?.synthesized).toBe('described');
      expect(query.id).toMatch(/^synth-described-/);
      for (const answer of query.answers) expect(neighbours(anchor.id).has(answer)).toBe(true);
      // No name of the anchor is in the question; the words describing it are its own.
      const description = query.meta?.description as string;
      expect(query.query.toLowerCase()).not.toContain(anchor.name.toLowerCase());
      expect(query.query).toContain(description);
      for (const word of description.split(' ')) expect(anchor.text).toContain(word);
      // The description finds the anchor first among the nodes of its type.
      const [hits = []] = await context.text.doSearch({
        queries: [description],
        limit: 1,
        filter: { nodeTypes: [anchor.type] },
      });
      expect(hits[0]?.id).toBe(anchor.id);
    }
    // Without described queries asked for, none are made.
    const plain = await synthesizeQueries(context, { hybrid: 2, text: 0, seed: 3, maxCandidates: 50 });
    expect(plain.described).toEqual([]);
    expect(plain.hybrid.every((q) => q.meta?.synthesized === 'hybrid')).toBe(true);
  });

  it('is deterministic for a store and seed, and says when the store cannot sample', async () => {
    const a = await synthesizeQueries(context, { hybrid: 4, text: 2, seed: 9 });
    const b = await synthesizeQueries(context, { hybrid: 4, text: 2, seed: 9 });
    expect(a).toEqual(b);
    const graph = Object.assign(Object.create(Object.getPrototypeOf(context.graph)), context.graph, {
      doSampleNodes: undefined,
    });
    await expect(synthesizeQueries({ ...context, graph }, {})).rejects.toMatchObject({
      code: 'WEFT_UNSUPPORTED',
    });
    expect(typeWord('noun.animal')).toBe('animal');
    expect(typeWord('egg_group')).toBe('egg group');
  });
});
