import { Dex } from '@pkmn/dex';
import { describe, expect, it } from 'vitest';
import { speciesEdges } from './species-edges.ts';

const dex = Dex.forGen(9);
const edgesOf = (name: string, type?: string) =>
  speciesEdges(dex.species.get(name))
    .filter((e) => type === undefined || e.type === type)
    .map((e) => (type === undefined ? `${e.type} ${e.dst}` : e.dst));

describe('speciesEdges', () => {
  it('gives Charizard its types, abilities, egg groups and G-Max Move', () => {
    expect(edgesOf('Charizard')).toEqual([
      'has_type type:fire',
      'has_type type:flying',
      'has_ability ability:blaze',
      'has_hidden_ability ability:solarpower',
      'in_egg_group egg_group:monster',
      'in_egg_group egg_group:dragon',
      'gigantamax_move move:gmaxwildfire',
    ]);
  });

  it('makes Eevee evolve into its eight evolutions', () => {
    expect(edgesOf('Eevee', 'evolves_into')).toEqual([
      'pokemon:vaporeon',
      'pokemon:jolteon',
      'pokemon:flareon',
      'pokemon:espeon',
      'pokemon:umbreon',
      'pokemon:leafeon',
      'pokemon:glaceon',
      'pokemon:sylveon',
    ]);
  });

  it('links a forme to its base species and to the item it needs', () => {
    expect(edgesOf('Charizard-Mega-X', 'is_forme_of')).toEqual(['pokemon:charizard']);
    expect(edgesOf('Charizard-Mega-X', 'requires_item')).toEqual(['item:charizarditex']);
    expect(edgesOf('Arceus-Fire', 'requires_item')).toEqual(['item:flameplate', 'item:firiumz']);
  });

  it('links an evolved species to the item its evolution uses', () => {
    expect(edgesOf('Vaporeon', 'evolves_with_item')).toEqual(['item:waterstone']);
    expect(edgesOf('Scizor', 'evolves_with_item')).toEqual(['item:metalcoat']);
  });

  it("counts a special event ability (slot S) as one of the Pokémon's abilities", () => {
    expect(edgesOf('Greninja', 'has_ability')).toEqual(['ability:torrent', 'ability:battlebond']);
  });
});
