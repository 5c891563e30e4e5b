import { Dex } from '@pkmn/dex';
import { describe, expect, it } from 'vitest';
import { includedEntries } from './included-entries.ts';

const entries = includedEntries(Dex.forGen(9));
const names = (list: readonly { name: string }[]) => new Set(list.map((e) => e.name));

describe('includedEntries', () => {
  it('keeps past-generation game data and drops fan-made, Showdown-only and provisional entries', () => {
    const species = names(entries.species);
    for (const kept of ['Charizard', 'Charizard-Mega-X', 'Caterpie', 'Raichu-Alola', 'Charizard-Gmax'])
      expect(species.has(kept), kept).toBe(true);
    for (const dropped of ['Syclant', 'Pokestar Smeargle', 'MissingNo.', 'Pikachu-Starter', 'Clefable-Mega'])
      expect(species.has(dropped), dropped).toBe(false);
    const moves = names(entries.moves);
    for (const kept of ['Inferno Overdrive', 'Max Flare', 'G-Max Wildfire', 'Cut', 'Hidden Power'])
      expect(moves.has(kept), kept).toBe(true);
    for (const dropped of ['Paleo Wave', 'Pika Papow', 'Nihil Light', 'Hidden Power Fire'])
      expect(moves.has(dropped), dropped).toBe(false);
  });

  it('drops entries that only duplicate others', () => {
    expect(names(entries.species).has('Vivillon-Polar')).toBe(false);
    expect(names(entries.abilities).has('No Ability')).toBe(false);
    expect(new Set(entries.moves.map((m) => m.id)).size).toBe(entries.moves.length);
  });

  it('has the 18 types and the 15 egg groups', () => {
    expect(entries.types).toHaveLength(18);
    expect(names(entries.types).has('Stellar')).toBe(false);
    expect(entries.eggGroups).toHaveLength(15);
    expect(entries.eggGroups).toContain('Water 1');
  });
});
