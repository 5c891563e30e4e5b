import type { Ability } from '@pkmn/dex';
import type { SkbNode } from '@weft/spec';
import { nodeId } from './node-id.ts';

/** An ability as a node: when it came and Showdown's full description of its effect. */
export function abilityNode(ability: Ability): SkbNode {
  return {
    id: nodeId('ability', ability.name),
    type: 'ability',
    name: ability.name,
    text: `${ability.name} is an ability introduced in Generation ${ability.gen}. ${ability.desc || ability.shortDesc}`,
    props: { gen: ability.gen },
  };
}
