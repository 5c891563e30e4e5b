import { Dex } from '@pkmn/dex';
import { describe, expect, it } from 'vitest';
import { learnsEdges } from './learns-edges.ts';

const dex = Dex.forGen(9);
const learned = async (name: string) => {
  const species = dex.species.get(name);
  return learnsEdges(species, await dex.learnsets.get(species.id)).map((e) => e.dst);
};

describe('learnsEdges', () => {
  it('gives one edge per move of the learnset, whatever the generation or method', async () => {
    expect((await learned('Magikarp')).sort()).toEqual([
      'move:bounce',
      'move:celebrate',
      'move:flail',
      'move:happyhour',
      'move:hydropump',
      'move:splash',
      'move:tackle',
    ]);
    const charizard = await learned('Charizard');
    expect(charizard).toContain('move:flareblitz');
    expect(new Set(charizard).size).toBe(charizard.length);
  });

  it('gives none to a forme without a learnset of its own', async () => {
    expect(await learned('Charizard-Mega-X')).toEqual([]);
  });
});
