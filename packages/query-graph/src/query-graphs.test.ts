import { InMemoryGraphStore, InMemoryTextIndex, type InMemorySkb } from '@weft/core/test';
import type { Anchor, RetrievalContext, SkbNode } from '@weft/spec';
import { describe, expect, it } from 'vitest';
import { searchQueryGraphs } from './query-graphs.ts';

const node = (id: string, name: string, text: string): SkbNode => ({ id, type: 'synset', name, text });

/** Two senses of "eye": the organ has parts, the faculty has none. */
const skb: InMemorySkb = {
  schema: {
    name: 'eyes',
    version: 1,
    nodeTypes: [{ name: 'synset', description: 'a sense' }],
    edgeTypes: [
      { name: 'part_meronym', from: 'synset', to: 'synset', description: 'has as a part' },
      { name: 'hypernym', from: 'synset', to: 'synset', description: 'is a kind of' },
    ],
  },
  nodes: [
    node('organ', 'eye', 'the organ of sight'),
    node('faculty', 'eye', 'good discernment, as in an eye for beauty'),
    node('iris', 'iris', 'muscular diaphragm that controls the size of the pupil of the eye'),
    node('cornea', 'cornea', 'transparent covering at the front of the eye'),
    node('lens', 'lens', 'biconvex transparent body behind the iris that focuses light'),
    node('discernment', 'discernment', 'the power to see what is not obvious'),
    node('sense', 'sense organ', 'an organ having nerve endings that respond to stimuli'),
    node('sky', 'sky', 'the atmosphere as seen from the earth, blue on a clear day'),
  ],
  edges: [
    { src: 'organ', type: 'part_meronym', dst: 'iris' },
    { src: 'organ', type: 'part_meronym', dst: 'cornea' },
    { src: 'organ', type: 'part_meronym', dst: 'lens' },
    { src: 'organ', type: 'hypernym', dst: 'sense' },
    { src: 'faculty', type: 'hypernym', dst: 'discernment' },
  ],
};

function context(): RetrievalContext {
  return { schema: skb.schema, graph: new InMemoryGraphStore(skb), text: new InMemoryTextIndex(skb.nodes) };
}

/** "eye" as a linker reads it: the faculty first (its gloss names the word), the organ second. */
const eye: Anchor = {
  mention: 'eye',
  confidence: 0.5,
  candidates: [
    { id: 'faculty', score: 1, type: 'synset' },
    { id: 'organ', score: 0.95, type: 'synset' },
  ],
};

describe('searchQueryGraphs', () => {
  it('hangs the relation on the sense that has it: the organ, whose parts match the question', async () => {
    const reading = await searchQueryGraphs('the part of the eye that controls the pupil', [eye], context());
    const first = reading.graphs[0]!;
    expect(first).toMatchObject({ node: 'organ', edgeType: 'part_meronym', direction: 'out', reach: 3 });
    expect(first.endpoints[0]!.id).toBe('iris');
    // The faculty has no part: no reading of it along part_meronym.
    expect(reading.graphs.some((g) => g.node === 'faculty' && g.edgeType === 'part_meronym')).toBe(false);
    expect(first.evidence.relationWords).toBeGreaterThan(0);
    expect(first.confidence).toBeGreaterThan(reading.textOnly);
  });

  it('reads a question no reading fits as text: confidences and the text-only share sum to one', async () => {
    const reading = await searchQueryGraphs('blue on a clear day', [eye], context());
    // No endpoint of any sense matches the words: the text-only reading outweighs every reading.
    expect(reading.graphs.every((g) => g.evidence.fit === 0)).toBe(true);
    expect(reading.textOnly).toBeGreaterThan(0.5);
    const some = await searchQueryGraphs('the part of the eye that controls the pupil', [eye], context());
    const total = some.textOnly + some.graphs.reduce((sum, g) => sum + g.confidence, 0);
    expect(total).toBeCloseTo(1);
  });

  it('takes relation words for the relation, not for an anchor, and leaves them out of the constraint', async () => {
    const part: Anchor = {
      mention: 'part',
      confidence: 0.9,
      candidates: [{ id: 'lens', score: 1, type: 'synset' }],
    };
    const reading = await searchQueryGraphs('a part of the eye', [part, eye], context());
    expect(reading.graphs[0]).toMatchObject({ node: 'organ', edgeType: 'part_meronym', constraint: '' });
    // "part" names the relation (part_meronym): as an anchor it weighs a fifth of its link.
    const lens = reading.graphs.find((g) => g.node === 'lens');
    if (lens) expect(lens.evidence.link).toBeCloseTo(0.2 * Math.sqrt(0.9));
  });

  it('reads nothing without a confident anchor or without text', async () => {
    const unsure = { ...eye, confidence: 0.05 };
    expect((await searchQueryGraphs('the part of the eye', [unsure], context())).graphs).toEqual([]);
    expect((await searchQueryGraphs('  ', [eye], context())).graphs).toEqual([]);
  });
});
