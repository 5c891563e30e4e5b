import { emptyPlan } from '@weft/kit';
import { toyContext } from '@weft/core/test';
import { describe, expect, it } from 'vitest';
import { oraclePlans } from './oracle-plans.ts';

const context = toyContext();
const options = (query: string) => ({ query, feedback: [], context });

describe('oraclePlans', () => {
  const transform = oraclePlans([
    {
      question: 'a telephoto zoom lens for wildlife',
      anchors: ['b:nikon'],
      paths: [{ anchor: 'b:nikon', hops: [{ edgeType: 'made_by', direction: 'in' }] }],
      answerType: 'product',
    },
    {
      question: 'Nikon cameras in the DSLR category',
      anchors: ['b:nikon', 'c:dslr'],
      paths: [
        { anchor: 'b:nikon', hops: [{ edgeType: 'made_by', direction: 'in' }] },
        { anchor: 'c:dslr', hops: [{ edgeType: 'in_category', direction: 'in' }] },
      ],
    },
  ]);

  it('replaces the plan by the gold one: anchors, paths followed in the graph with their endpoints, answer type', async () => {
    const own = emptyPlan('a telephoto zoom lens for wildlife', context.schema);
    const gold = await transform(own, options(own.query));
    expect(gold.anchors).toEqual([
      { mention: 'Nikon', confidence: 1, candidates: [{ id: 'b:nikon', type: 'brand', score: 1 }] },
    ]);
    expect(gold.paths).toHaveLength(1);
    expect(gold.paths[0]).toMatchObject({ anchor: 0, node: 'b:nikon', confidence: 1 });
    expect(new Set(gold.paths[0]!.endpoints)).toEqual(new Set(['p:d850', 'p:d3500', 'p:nikkor']));
    // The endpoint whose text best matches the question first.
    expect(gold.paths[0]!.endpoints![0]).toBe('p:nikkor');
    expect(gold.targetTypes).toEqual([{ type: 'product', score: 1 }]);
  });

  it('splits the confidence over the paths of an intersection, and leaves a question without a gold plan alone', async () => {
    const own = emptyPlan('Nikon cameras in the DSLR category', context.schema);
    const gold = await transform(own, options(own.query));
    expect(gold.paths.map((p) => p.confidence)).toEqual([0.5, 0.5]);
    expect(gold.paths[1]!.endpoints).toEqual(expect.arrayContaining(['p:d850', 'p:d3500', 'p:eos']));
    const other = emptyPlan('a compact street camera', context.schema);
    expect(await transform(other, options(other.query))).toBe(other);
  });
});
