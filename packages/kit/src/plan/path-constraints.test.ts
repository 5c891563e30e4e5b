import { describe, expect, it } from 'vitest';
import { pathConstraints } from './path-constraints.ts';

describe('pathConstraints', () => {
  const targetTypes = [
    { type: 'product', score: 0.9 },
    { type: 'brand', score: 0.2 },
  ];
  const twoHops = {
    anchor: 0,
    hops: [
      { edgeType: 'made_by', direction: 'in' as const, nodeTypes: ['product'], restriction: 'camera' },
      { edgeType: 'compatible_with', direction: 'out' as const, nodeTypes: ['product'] },
    ],
    score: 1,
  };

  it('chains each anchored path to x through one variable per intermediate hop, in the edge direction', () => {
    const { variables, triplets } = pathConstraints([twoHops, { ...twoHops, anchor: undefined }], {
      targetTypes,
      restriction: 'zoom',
    });
    expect(variables).toEqual([
      { name: 'x', nodeTypes: ['product'], restriction: 'zoom' },
      { name: 'y0_0', nodeTypes: ['product'] },
    ]);
    expect(triplets).toEqual([
      {
        subject: { kind: 'variable', name: 'y0_0' },
        edgeType: 'made_by',
        object: { kind: 'anchor', anchor: 0 },
      },
      {
        subject: { kind: 'variable', name: 'y0_0' },
        edgeType: 'compatible_with',
        object: { kind: 'variable', name: 'x' },
      },
    ]);
  });

  it('names variables and carries hop restrictions when asked', () => {
    const { variables } = pathConstraints([twoHops], {
      targetTypes,
      restriction: '',
      variableName: (_path, hop) => `y${hop}`,
      hopRestrictions: true,
    });
    expect(variables).toEqual([
      { name: 'x', nodeTypes: ['product'] },
      { name: 'y0', nodeTypes: ['product'], restriction: 'camera' },
    ]);
  });
});
