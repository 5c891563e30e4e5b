import type { SkbNode } from '@weft/spec';
import { nodeId } from './node-id.ts';

/** An egg group as a node; its members are the edges, so the text only says what an egg group is. */
export function eggGroupNode(name: string): SkbNode {
  const text =
    name === 'Undiscovered'
      ? 'Undiscovered is the egg group of Pokémon that cannot breed, such as most Legendary Pokémon and baby Pokémon.'
      : name === 'Ditto'
        ? 'Ditto is the egg group of Ditto alone, which can breed with Pokémon of every other egg group except Undiscovered.'
        : `${name} is an egg group: Pokémon that share an egg group can breed with each other.`;
  return { id: nodeId('egg_group', name), type: 'egg_group', name, text };
}
