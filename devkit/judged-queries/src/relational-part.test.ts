import { describe, expect, it } from 'vitest';
import { candidatesOf, EdgeIndex, type RelationalPart } from './relational-part.ts';

// A tiny graph: two species with types, one evolving into the other, and what they learn.
const nodes = [
  { id: 'p:a', type: 'pokemon' },
  { id: 'p:b', type: 'pokemon' },
  { id: 'm:x', type: 'move' },
  { id: 'm:y', type: 'move' },
  { id: 'm:z', type: 'move' },
  { id: 't:fire', type: 'type' },
  { id: 't:water', type: 'type' },
];
const edges = [
  { src: 'p:a', type: 'evolves_into', dst: 'p:b' },
  { src: 'p:a', type: 'learns', dst: 'm:x' },
  { src: 'p:b', type: 'learns', dst: 'm:y' },
  { src: 'p:b', type: 'learns', dst: 'm:z' },
  { src: 'm:x', type: 'has_type', dst: 't:fire' },
  { src: 'm:y', type: 'has_type', dst: 't:fire' },
  { src: 'm:z', type: 'has_type', dst: 't:water' },
  { src: 'p:a', type: 'has_type', dst: 't:fire' },
  { src: 'p:b', type: 'has_type', dst: 't:fire' },
];
const index = new EdgeIndex(nodes, edges);
const run = (part: RelationalPart) => candidatesOf(part, index);

describe('candidatesOf', () => {
  it('follows one step forwards or backwards', () => {
    expect(
      run({
        answerType: 'move',
        constraints: [{ anchor: 'p:b', path: [{ edge: 'learns', direction: 'in' }] }],
      }),
    ).toEqual(['m:y', 'm:z']);
    expect(
      run({
        answerType: 'move',
        constraints: [{ anchor: 't:fire', path: [{ edge: 'has_type', direction: 'out' }] }],
      }),
    ).toEqual(['m:x', 'm:y']);
  });

  it('follows a two-step chain from the answer to the anchor', () => {
    const part: RelationalPart = {
      answerType: 'move',
      constraints: [
        {
          anchor: 'p:a',
          path: [
            { edge: 'learns', direction: 'in' },
            { edge: 'evolves_into', direction: 'in' },
          ],
        },
      ],
    };
    expect(run(part)).toEqual(['m:y', 'm:z']);
  });

  it('intersects the constraints of several anchors', () => {
    const part: RelationalPart = {
      answerType: 'move',
      constraints: [
        { anchor: 'p:b', path: [{ edge: 'learns', direction: 'in' }] },
        { anchor: 't:fire', path: [{ edge: 'has_type', direction: 'out' }] },
      ],
    };
    expect(run(part)).toEqual(['m:y']);
  });

  it('keeps only the answer type and never returns an anchor', () => {
    // p:a and p:b share the Fire type; asking for Pokémon that share a type with p:a leaves out p:a.
    const part: RelationalPart = {
      answerType: 'pokemon',
      constraints: [
        {
          anchor: 'p:a',
          path: [
            { edge: 'has_type', direction: 'out' },
            { edge: 'has_type', direction: 'in' },
          ],
        },
      ],
    };
    expect(run(part)).toEqual(['p:b']);
  });
});
