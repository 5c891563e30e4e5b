import { Dex } from '@pkmn/dex';
import { describe, expect, it } from 'vitest';
import { formeAliases, speciesNode } from './species-node.ts';

const dex = Dex.forGen(9);
const node = (name: string) =>
  speciesNode(dex.species.get(name), new Set(dex.species.all().map((s) => s.name)));

describe('speciesNode', () => {
  it("writes a species' data as plain sentences", () => {
    const charizard = node('Charizard');
    expect(charizard).toMatchObject({ id: 'pokemon:charizard', type: 'pokemon', name: 'Charizard' });
    expect(charizard.text).toContain(
      'Charizard is a Fire- and Flying-type Pokémon, number 6 in the National Pokédex',
    );
    expect(charizard.text).toContain('Its ability is Blaze. Its hidden ability is Solar Power.');
    expect(charizard.text).toContain('109 Special Attack, 85 Special Defense and 100 Speed, a total of 534.');
    expect(charizard.text).toContain('It weighs 90.5 kg.');
    expect(charizard.text).toContain('It evolves from Charmeleon at level 36. It is fully evolved.');
    expect(charizard.text).toContain('It can Gigantamax, which gives it the move G-Max Wildfire.');
    expect(charizard.props).toMatchObject({ num: 6, gen: 1, spa: 109, bst: 534, weightkg: 90.5 });
  });

  it('describes evolution methods, with the right article before an item', () => {
    expect(node('Sylveon').text).toContain(
      'It evolves from Eevee when levelled up with a Fairy-type move and two levels of Affection.',
    );
    expect(node('Glaceon').text).toContain('It evolves from Eevee when an Ice Stone is used on it.');
    expect(node('Politoed').text).toContain(
      "It evolves from Poliwhirl when traded while holding a King's Rock.",
    );
    expect(node('Eevee').text).toContain(
      'It evolves into Vaporeon, Jolteon, Flareon, Espeon, Umbreon, Leafeon',
    );
  });

  it('names formes as players do and says what triggers them', () => {
    const megaX = node('Charizard-Mega-X');
    expect(megaX.aliases).toEqual(['Mega Charizard X']);
    expect(megaX.text).toContain(
      'It is a Mega Evolution of Charizard, triggered in battle by holding Charizardite X.',
    );
    expect(megaX.text).toContain('It is not available in Pokémon Scarlet and Violet.');
    expect(formeAliases(dex.species.get('Raichu-Alola'))).toEqual(['Alolan Raichu']);
    expect(formeAliases(dex.species.get('Darmanitan-Galar-Zen'))).toEqual(['Galarian Darmanitan (Zen)']);
    expect(formeAliases(dex.species.get('Toxtricity-Low-Key-Gmax'))).toEqual(['Gigantamax Toxtricity']);
    expect(formeAliases(dex.species.get('Rotom-Wash'))).toEqual([]);
  });

  it('gives legendary tags, gender and breeding in words', () => {
    const hooh = node('Ho-Oh').text;
    expect(hooh).toContain('Ho-Oh is a Fire- and Flying-type Restricted Legendary Pokémon');
    expect(hooh).toContain('It has no gender. It is in the Undiscovered egg group, so it cannot breed.');
    expect(node('Blissey').text).toContain('It is always female.');
  });

  it('lists cosmetic formes as aliases', () => {
    expect(node('Vivillon').aliases).toContain('Vivillon-Polar');
  });
});
