import { Dex } from '@pkmn/dex';
import { describe, expect, it } from 'vitest';
import { includedEntries } from './included-entries.ts';
import { typeMatchups } from './type-matchups.ts';
import { typeNode } from './type-node.ts';

const matchups = typeMatchups(includedEntries(Dex.forGen(9)).types);
const has = (attacker: string, effectiveness: string, defender: string) =>
  matchups.some(
    (m) => m.attacker === attacker && m.defender === defender && m.effectiveness === effectiveness,
  );

describe('typeMatchups', () => {
  it('reads the attacking -> defending matchups of the type chart', () => {
    expect(has('Fire', 'super_effective_against', 'Grass')).toBe(true);
    expect(has('Grass', 'not_very_effective_against', 'Fire')).toBe(true);
    expect(has('Normal', 'no_effect_on', 'Ghost')).toBe(true);
    expect(has('Ground', 'no_effect_on', 'Flying')).toBe(true);
    expect(has('Fire', 'super_effective_against', 'Water')).toBe(false);
    expect(matchups.filter((m) => m.effectiveness === 'no_effect_on')).toHaveLength(8);
  });
});

describe('typeNode', () => {
  it('writes both directions of the matchups', () => {
    const normal = typeNode('Normal', matchups);
    expect(normal).toMatchObject({ id: 'type:normal', type: 'type', name: 'Normal' });
    expect(normal.text).toBe(
      'Normal is one of the 18 Pokémon types. Normal-type moves are not very effective against Rock and Steel; ineffective against Ghost. Normal-type Pokémon are weak to Fighting; are immune to Ghost.',
    );
  });
});
