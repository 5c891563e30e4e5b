import { describe, expect, it } from 'vitest';
import type { QueryAnswer } from './api-client.ts';
import { buildPicture, edgeText, planPathText } from './path-graph.ts';

const plan = {
  query: 'Nikon zoom lens compatible with a DSLR',
  targetTypes: [{ type: 'product', score: 1 }],
  anchors: [
    {
      mention: 'Nikon',
      candidates: [
        { id: 'b:nikon', type: 'brand', score: 1 },
        { id: 'b:canon', type: 'brand', score: 0.2 },
        { id: 'b:leica', type: 'brand', score: 0.1 },
      ],
      confidence: 1,
    },
    { mention: 'DSLR', candidates: [{ id: 'c:dslr', type: 'category', score: 0.9 }], confidence: 0.7 },
  ],
  paths: [
    {
      anchor: 0,
      hops: [
        { edgeType: 'made_by', direction: 'in' as const, nodeTypes: ['product'], restriction: 'zoom lens' },
      ],
      score: 1,
    },
    { startTypes: ['category'], hops: [{ edgeType: 'in_category', direction: 'in' as const }], score: 0.5 },
  ],
  variables: [],
  triplets: [],
  restriction: 'zoom lens',
  confidence: 0.8,
};

const answer = {
  query: plan.query,
  stack: 'mor-offline',
  results: [
    { rank: 1, id: 'p:nikkor', type: 'product', name: 'AF-S Nikkor 200-500mm', score: 7 },
    { rank: 2, id: 'p:ef', type: 'product', name: 'Canon EF 100-400mm', score: 1 },
  ],
  llm: { calls: 0, inputTokens: 0, outputTokens: 0, embeddingCalls: 0, stages: [] },
  warnings: [],
  explanation: {
    plan,
    trace: {} as never,
    trajectories: {
      'p:nikkor': [
        {
          hops: [
            { node: 'b:nikon', nodeType: 'brand', via: 'anchor' as const },
            { node: 'p:nikkor', edgeType: 'made_by', direction: 'in' as const, via: 'structure' as const },
          ],
          path: 0,
        },
        {
          hops: [
            { node: 'c:lenses', nodeType: 'category', via: 'text' as const, textScore: 2 },
            {
              node: 'p:nikkor',
              edgeType: 'in_category',
              direction: 'in' as const,
              via: 'structure' as const,
            },
          ],
          path: 1,
        },
        {
          hops: [
            { node: 'b:nikon', nodeType: 'brand', via: 'anchor' as const },
            { node: 'p:d850', edgeType: 'made_by', direction: 'in' as const, via: 'structure' as const },
            { node: 'p:nikkor', edgeType: 'compatible_with', direction: 'in' as const, via: 'text' as const },
          ],
        },
      ],
      'p:ef': [{ hops: [{ node: 'p:ef', via: 'text' as const, textScore: 1 }] }],
    },
    labels: {
      'b:nikon': { name: 'Nikon', type: 'brand' },
      'b:canon': { name: 'Canon', type: 'brand' },
      'p:nikkor': { name: 'AF-S Nikkor 200-500mm', type: 'product' },
      'p:d850': { name: 'Nikon D850', type: 'product' },
      'c:lenses': { name: 'Lenses', type: 'category' },
      'c:dslr': { name: 'DSLR cameras', type: 'category' },
      'p:ef': { name: 'Canon EF 100-400mm', type: 'product' },
    },
  },
} as unknown as QueryAnswer;

describe('buildPicture', () => {
  it('draws every hop as its stored edge points (the arrow), labelled with its type and how it was reached', () => {
    const picture = buildPicture(answer, 'p:nikkor');
    expect(picture).toMatchObject({ shown: 3, total: 3 });
    // made_by is stored product → brand; the walk went brand → product (direction in).
    expect(picture.edges.map((e) => [e.source, e.target, e.label, e.paths])).toEqual([
      ['p:nikkor', 'b:nikon', 'made_by · structure', [0]],
      ['p:nikkor', 'c:lenses', 'in_category · structure', [1]],
      ['p:d850', 'b:nikon', 'made_by · structure', []],
      ['p:nikkor', 'p:d850', 'compatible_with · text', []],
    ]);
    expect(picture.edges[0]).toMatchObject({ walkedFrom: 'b:nikon', walkedTo: 'p:nikkor', direction: 'in' });
    // No label carries an arrow of its own that could contradict the drawn one.
    expect(picture.edges.some((e) => /[←→]/.test(e.label))).toBe(false);
  });

  it('marks the anchors and the result, the result in the last column; anchors that took no part are folded away', () => {
    const picture = buildPicture(answer, 'p:nikkor');
    const node = (id: string) => picture.nodes.find((n) => n.id === id);
    expect(node('b:nikon')).toMatchObject({
      role: 'anchor',
      mention: 'Nikon',
      via: 'anchor',
      column: 0,
      row: 0,
    });
    // Only the best link of a mention is listed when no trajectory starts from the others.
    expect(node('b:canon')).toBeUndefined();
    expect(node('c:lenses')).toMatchObject({ role: 'hop', via: 'text', column: 0, row: 1, type: 'category' });
    expect(node('p:d850')).toMatchObject({ role: 'hop', via: 'structure', column: 1, row: 0 });
    expect(node('p:nikkor')).toMatchObject({
      role: 'result',
      column: 2,
      row: 0,
      label: 'AF-S Nikkor 200-500mm',
    });
    // Linked by the plan but on no trajectory: not drawn, listed as taking no part.
    expect(node('c:dslr')).toBeUndefined();
    expect(picture.unusedAnchors).toEqual([
      { id: 'c:dslr', label: 'DSLR cameras', type: 'category', mention: 'DSLR' },
    ]);
  });

  it('draws a result found by text alone as one node, every anchor folded away', () => {
    const picture = buildPicture(answer, 'p:ef');
    expect(picture.edges).toEqual([]);
    expect(picture.nodes).toHaveLength(1);
    expect(picture.nodes[0]).toMatchObject({ id: 'p:ef', role: 'result', column: 0, row: 0 });
    expect(picture.unusedAnchors.map((a) => a.id)).toEqual(['b:nikon', 'c:dslr']);
  });

  it('caps the trajectories it draws', () => {
    expect(buildPicture(answer, 'p:nikkor', 1)).toMatchObject({ shown: 1, total: 3 });
    expect(buildPicture(answer, 'p:nikkor', 1).edges).toHaveLength(1);
  });
});

describe('plan path text', () => {
  it('reads a path from its anchor or its start types through typed hops', () => {
    expect(planPathText(plan, 0, answer.explanation!.labels)).toBe(
      '“Nikon” = Nikon ←made_by product [“zoom lens”]',
    );
    expect(planPathText(plan, 1, {})).toBe('text matches of category ←in_category *');
    expect(edgeText('made_by', 'out')).toBe('made_by→');
  });
});
