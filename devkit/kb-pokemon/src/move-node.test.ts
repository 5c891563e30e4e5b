import { Dex } from '@pkmn/dex';
import { describe, expect, it } from 'vitest';
import { moveNode } from './move-node.ts';

const text = (name: string) => moveNode(Dex.forGen(9).moves.get(name)).text;

describe('moveNode', () => {
  it("puts the move's numbers in a sentence before Showdown's description", () => {
    const node = moveNode(Dex.forGen(9).moves.get('Flare Blitz'));
    expect(node).toMatchObject({ id: 'move:flareblitz', type: 'move', name: 'Flare Blitz' });
    expect(node.text).toMatch(
      /^Flare Blitz is a Fire-type physical move introduced in Generation 4, with 120 power, 100% accuracy and 15 PP\. Has a 10% chance to burn/,
    );
    expect(node.props).toMatchObject({ moveType: 'Fire', category: 'Physical', basePower: 120, pp: 15 });
  });

  it('names the traits players search by', () => {
    expect(text('Flare Blitz')).toContain('It makes contact. It thaws the user out if the user is frozen.');
    expect(text('Protect')).toContain('It has priority +4.');
    expect(text('Swift')).toContain('It never misses. It hits all adjacent opponents.');
    expect(text('Boomburst')).toContain('It is a sound-based move.');
    expect(text('Ice Shard')).toMatch(/^Ice Shard is an Ice-type physical move/);
  });

  it('words status moves and variable power without a power figure', () => {
    expect(text('Protect')).toMatch(
      /^Protect is a Normal-type status move introduced in Generation 2, with 10 PP\./,
    );
    expect(text('Low Kick')).toContain('with variable power, 100% accuracy and 20 PP.');
  });

  it('says which moves belong to older mechanics', () => {
    expect(text('Inferno Overdrive')).toContain(
      'It is a Z-Move. It is not available in Pokémon Scarlet and Violet.',
    );
    expect(text('G-Max Wildfire')).toContain('It is the G-Max Move of Gigantamax Charizard.');
  });
});
