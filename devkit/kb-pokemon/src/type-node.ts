import type { SkbNode } from '@weft/spec';
import { englishList } from './english-list.ts';
import { nodeId } from './node-id.ts';
import type { Effectiveness, TypeMatchup } from './type-matchups.ts';

/** A type as a node: a short text with its matchups attacking and defending. */
export function typeNode(name: string, matchups: readonly TypeMatchup[]): SkbNode {
  const attacking = (effectiveness: Effectiveness) =>
    matchups.filter((m) => m.attacker === name && m.effectiveness === effectiveness).map((m) => m.defender);
  const defending = (effectiveness: Effectiveness) =>
    matchups.filter((m) => m.defender === name && m.effectiveness === effectiveness).map((m) => m.attacker);
  const clause = (names: string[], words: string) =>
    names.length > 0 ? [`${words} ${englishList(names)}`] : [];
  const offence = [
    ...clause(attacking('super_effective_against'), 'super effective against'),
    ...clause(attacking('not_very_effective_against'), 'not very effective against'),
    ...clause(attacking('no_effect_on'), 'ineffective against'),
  ];
  const defence = [
    ...clause(defending('super_effective_against'), 'are weak to'),
    ...clause(defending('not_very_effective_against'), 'resist'),
    ...clause(defending('no_effect_on'), 'are immune to'),
  ];
  const text = [
    `${name} is one of the 18 Pokémon types.`,
    `${name}-type moves are ${offence.join('; ')}.`,
    `${name}-type Pokémon ${defence.join('; ')}.`,
  ].join(' ');
  return { id: nodeId('type', name), type: 'type', name, text };
}
