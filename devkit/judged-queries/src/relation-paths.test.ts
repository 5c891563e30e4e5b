import { describe, expect, it } from 'vitest';
import { candidatesOf, EdgeIndex, type RelationalPart } from './relational-part.ts';
import { candidatesOfPaths, followPath, relationPaths } from './relation-paths.ts';

const nodes = [
  { id: 'pokemon:charmander', type: 'pokemon' },
  { id: 'pokemon:charmeleon', type: 'pokemon' },
  { id: 'pokemon:charizard', type: 'pokemon' },
  { id: 'move:ember', type: 'move' },
  { id: 'move:flareblitz', type: 'move' },
  { id: 'move:airslash', type: 'move' },
  { id: 'type:fire', type: 'type' },
];
const edge = (src: string, type: string, dst: string) => ({ src, type, dst });
const index = new EdgeIndex(nodes, [
  edge('pokemon:charmander', 'evolves_into', 'pokemon:charmeleon'),
  edge('pokemon:charmeleon', 'evolves_into', 'pokemon:charizard'),
  edge('pokemon:charmeleon', 'learns', 'move:ember'),
  edge('pokemon:charizard', 'learns', 'move:flareblitz'),
  edge('pokemon:charizard', 'learns', 'move:airslash'),
  edge('move:ember', 'has_type', 'type:fire'),
  edge('move:flareblitz', 'has_type', 'type:fire'),
]);

describe('relationPaths', () => {
  const part: RelationalPart = {
    answerType: 'move',
    constraints: [
      {
        anchor: 'pokemon:charmander',
        path: [
          { edge: 'learns', direction: 'in' },
          { edge: 'evolves_into', direction: 'in' },
        ],
      },
      { anchor: 'type:fire', path: [{ edge: 'has_type', direction: 'out' }] },
    ],
  };

  it('reads each constraint from the anchor towards the answer, hops reversed and turned around', () => {
    expect(relationPaths(part)).toEqual([
      {
        anchor: 'pokemon:charmander',
        hops: [
          { edgeType: 'evolves_into', direction: 'out' },
          { edgeType: 'learns', direction: 'out' },
        ],
      },
      { anchor: 'type:fire', hops: [{ edgeType: 'has_type', direction: 'in' }] },
    ]);
  });

  it('admits exactly the candidates of the relational part it came from', () => {
    const paths = relationPaths(part);
    expect(followPath(paths[0]!, index)).toEqual(['move:ember']);
    expect(candidatesOfPaths(paths, 'move', index)).toEqual(candidatesOf(part, index));
    const charizard: RelationalPart = {
      answerType: 'move',
      constraints: [{ anchor: 'pokemon:charizard', path: [{ edge: 'learns', direction: 'in' }] }],
    };
    expect(candidatesOfPaths(relationPaths(charizard), 'move', index)).toEqual([
      'move:airslash',
      'move:flareblitz',
    ]);
  });
});
