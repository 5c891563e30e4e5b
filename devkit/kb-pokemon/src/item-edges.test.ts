import { Dex } from '@pkmn/dex';
import { describe, expect, it } from 'vitest';
import { itemEdges } from './item-edges.ts';
import { itemNode } from './item-node.ts';

const dex = Dex.forGen(9);
const edges = (name: string) => itemEdges(dex.items.get(name)).map((e) => `${e.type} ${e.dst}`);

describe('itemEdges', () => {
  it('ties plates, memories, drives and type Z-Crystals to their type', () => {
    expect(edges('Flame Plate')).toEqual(['has_type type:fire']);
    expect(edges('Chill Drive')).toEqual(['has_type type:ice', 'exclusive_to pokemon:genesectchill']);
    expect(edges('Firium Z')).toEqual(['has_type type:fire']);
  });

  it('links signature items to their Pokémon and species Z-Crystals to the move they upgrade', () => {
    expect(edges('Charizardite X')).toEqual(['exclusive_to pokemon:charizard']);
    expect(edges('Pikanium Z')).toEqual(['exclusive_to pokemon:pikachu', 'upgrades_move move:volttackle']);
    expect(edges('Leftovers')).toEqual([]);
  });
});

describe('itemNode', () => {
  it("gives the item's kind, generation and description", () => {
    expect(itemNode(dex.items.get('Sitrus Berry')).text).toBe(
      'Sitrus Berry is a Berry introduced in Generation 3. Restores 1/4 max HP when at 1/2 max HP or less. Single use.',
    );
    expect(itemNode(dex.items.get('Charizardite X')).text).toMatch(
      /^Charizardite X is a Mega Stone introduced/,
    );
  });
});
