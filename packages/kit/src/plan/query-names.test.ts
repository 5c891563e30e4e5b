import type { Plan, SkbSchema } from '@weft/spec';
import { describe, expect, it } from 'vitest';
import { emptyPlan } from './empty-plan.ts';
import { queryNames, queryShare } from './query-names.ts';

const schema: SkbSchema = {
  name: 'debian',
  version: 1,
  nodeTypes: [{ name: 'package' }],
  edgeTypes: [],
  targetTypes: ['package'],
};

function planOf(query: string, mention: string, named?: boolean): Plan {
  return {
    ...emptyPlan(query, schema),
    anchors: [
      {
        mention,
        confidence: 0.4,
        candidates: [
          { id: 'package:ecasound', type: 'package', score: 1, ...(named === undefined ? {} : { named }) },
          { id: 'source:ecasound', type: 'source', score: 0.8 },
        ],
      },
    ],
  };
}

describe('queryNames', () => {
  it('gives every node a query that is only a name names, however it is spaced or cased', () => {
    expect(queryNames(planOf('ecasound', 'ecasound'))).toEqual(['package:ecasound', 'source:ecasound']);
    expect(queryNames(planOf('  Ecasound? ', 'Ecasound'))).toEqual(['package:ecasound', 'source:ecasound']);
  });

  it('gives nothing when the question says more than the name, or describes the node', () => {
    expect(queryNames(planOf('ecasound plugins for audio', 'ecasound'))).toEqual([]);
    expect(queryNames(planOf('ecasound', 'ecasound', false))).toEqual(['source:ecasound']);
    expect(queryNames(planOf('', ''))).toEqual([]);
  });
});

describe('queryShare', () => {
  it('counts letters and digits, not words or punctuation, and stays in [0, 1]', () => {
    const share = queryShare({ query: 'ecasound plugins?' });
    expect(share('ecasound')).toBeCloseTo(8 / 15);
    expect(share('ecasound plugins')).toBe(1);
    expect(share('the ecasound plugins, all of them')).toBe(1);
    expect(queryShare({ query: '?!' })('x')).toBe(0);
  });
});
