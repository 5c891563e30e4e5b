import { emptyPlan } from '@weft/kit';
import { toyContext, toySkb } from '@weft/core/test';
import type { Plan } from '@weft/spec';
import { describe, expect, it } from 'vitest';
import {
  describeAction,
  egoGraphs,
  intersectEgoGraphs,
  reachesFrom,
  readBankAction,
  schemaRelations,
  writeBankAction,
} from './index.ts';

const schema = toySkb().schema;
const query = 'Nikon DSLR cameras for wildlife';

/** A linked plan with two anchors and no path: what a planner hands the router. */
function linked(): Plan {
  return {
    ...emptyPlan(query, schema),
    anchors: [
      {
        mention: 'Nikon',
        confidence: 0.9,
        candidates: [
          { id: 'p:d850', type: 'product', score: 0.6 },
          { id: 'b:nikon', type: 'brand', score: 1 },
        ],
      },
      { mention: 'DSLR', confidence: 0.8, candidates: [{ id: 'c:dslr', type: 'category', score: 1 }] },
    ],
    restriction: 'cameras for wildlife',
  };
}

describe('the action a plan encodes', () => {
  it('is the text module without anchored paths', () => {
    const action = readBankAction(linked());
    expect(action.module).toBe('text');
    expect(action.entities).toEqual([]);
    expect(describeAction(action)).toMatch(/^text:/);
  });

  it('round-trips through writeBankAction: chosen candidate first, one path per relation path', () => {
    const plan = writeBankAction(linked(), {
      module: 'hybrid',
      entities: [
        { anchor: 0, candidate: 1, paths: [[{ edgeType: 'made_by', direction: 'in' }]] },
        { anchor: 1, paths: [[{ edgeType: 'in_category', direction: 'in' }]] },
      ],
    });
    expect(plan.anchors[0]!.candidates.map((c) => c.id)).toEqual(['b:nikon', 'p:d850']);
    const action = readBankAction(plan);
    expect(action.module).toBe('hybrid');
    expect(action.entities.map((e) => [e.id, e.paths])).toEqual([
      ['b:nikon', [[{ edgeType: 'made_by', direction: 'in' }]]],
      ['c:dslr', [[{ edgeType: 'in_category', direction: 'in' }]]],
    ]);
    expect(action.entities[0]!.confidence).toBeCloseTo(0.9);
    expect(describeAction(action)).toBe('hybrid: Nikon [b:nikon] ←made_by— ∩ DSLR [c:dslr] ←in_category—');
  });

  it('is the graph module when the restriction is empty, and cuts paths at radius 2', () => {
    const plan = writeBankAction(linked(), {
      module: 'graph',
      entities: [
        {
          anchor: 1,
          paths: [
            [
              { edgeType: 'in_category', direction: 'in' },
              { edgeType: 'made_by', direction: 'out' },
              { edgeType: 'made_by', direction: 'in' },
            ],
          ],
        },
      ],
    });
    expect(plan.restriction).toBe('');
    const action = readBankAction(plan);
    expect(action.module).toBe('graph');
    expect(action.entities[0]!.paths[0]).toHaveLength(2);
    // Documents are then ranked by the query itself.
    expect(action.restriction).toBe(query);
  });

  it('falls back to the text module when the hybrid choice has no relation path', () => {
    const plan = writeBankAction(linked(), { module: 'hybrid', entities: [{ anchor: 0, paths: [] }] });
    expect(plan.paths).toEqual([]);
    expect(readBankAction(plan).module).toBe('text');
  });
});

describe('ego-graphs', () => {
  const context = toyContext();
  const entity = (id: string, type: string, paths: { edgeType: string; direction: 'in' | 'out' }[][]) => ({
    anchor: 0,
    mention: id,
    id,
    type,
    confidence: 1,
    paths,
  });

  it('reach what the relation paths reach, with the steps, never the entity itself', async () => {
    const [nikon] = await egoGraphs(
      [entity('b:nikon', 'brand', [[{ edgeType: 'made_by', direction: 'in' }]])],
      context,
    );
    expect([...nikon!.nodes.keys()].sort()).toEqual(['p:d3500', 'p:d850', 'p:nikkor']);
    expect(nikon!.nodes.get('p:d850')).toEqual([
      { node: 'p:d850', nodeType: 'product', edgeType: 'made_by', direction: 'in' },
    ]);
    expect(nikon!.truncated).toBe(false);
  });

  it('take a second step from the first (radius 2), keeping both rings', async () => {
    const [nikon] = await egoGraphs(
      [
        entity('b:nikon', 'brand', [
          [
            { edgeType: 'made_by', direction: 'in' },
            { edgeType: 'in_category', direction: 'out' },
          ],
        ]),
      ],
      context,
    );
    expect([...nikon!.nodes.keys()].sort()).toEqual(['c:dslr', 'c:lenses', 'p:d3500', 'p:d850', 'p:nikkor']);
    expect(nikon!.nodes.get('c:lenses')!.map((s) => s.node)).toEqual(['p:nikkor', 'c:lenses']);
  });

  it('are intersected over several entities, and an empty graph empties the intersection', async () => {
    const graphs = await egoGraphs(
      [
        entity('b:nikon', 'brand', [[{ edgeType: 'made_by', direction: 'in' }]]),
        entity('c:dslr', 'category', [[{ edgeType: 'in_category', direction: 'in' }]]),
      ],
      context,
    );
    const both = intersectEgoGraphs(graphs);
    expect([...both.keys()].sort()).toEqual(['p:d3500', 'p:d850']);
    expect(both.get('p:d850')!.map((steps) => steps[0]!.edgeType)).toEqual(['made_by', 'in_category']);
    const none = await egoGraphs(
      [
        entity('b:nikon', 'brand', [[{ edgeType: 'made_by', direction: 'in' }]]),
        entity('c:trail', 'category', [[{ edgeType: 'made_by', direction: 'in' }]]),
      ],
      context,
    );
    expect(none[1]!.nodes.size).toBe(0);
    expect(intersectEgoGraphs(none).size).toBe(0);
  });

  it('sample hubs: limitPerSeed cuts a seed’s neighbours and says so', async () => {
    const [nikon] = await egoGraphs(
      [entity('b:nikon', 'brand', [[{ edgeType: 'made_by', direction: 'in' }]])],
      context,
      { limitPerSeed: 2 },
    );
    expect(nikon!.nodes.size).toBe(2);
    expect(nikon!.truncated).toBe(true);
  });
});

describe('schema relations', () => {
  it('lists what a type can follow, and whether a step starts from it', () => {
    expect(schemaRelations(schema, 'brand')).toEqual([{ edgeType: 'made_by', direction: 'in' }]);
    expect(schemaRelations(schema, 'product').map((s) => `${s.edgeType}|${s.direction}`)).toEqual([
      'compatible_with|in',
      'compatible_with|out',
      'in_category|out',
      'made_by|out',
    ]);
    expect(reachesFrom(schema, 'brand', { edgeType: 'made_by', direction: 'in' })).toBe(true);
    expect(reachesFrom(schema, 'brand', { edgeType: 'made_by', direction: 'out' })).toBe(false);
  });
});
