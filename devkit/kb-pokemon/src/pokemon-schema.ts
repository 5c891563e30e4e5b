import type { SkbSchema } from '@weft/spec';

export type PokemonNodeType = 'pokemon' | 'move' | 'ability' | 'item' | 'type' | 'egg_group';

export type PokemonEdgeType =
  | 'has_type'
  | 'has_ability'
  | 'has_hidden_ability'
  | 'evolves_into'
  | 'is_forme_of'
  | 'learns'
  | 'in_egg_group'
  | 'requires_item'
  | 'evolves_with_item'
  | 'gigantamax_move'
  | 'exclusive_to'
  | 'upgrades_move'
  | 'super_effective_against'
  | 'not_very_effective_against'
  | 'no_effect_on';

const edge = (name: PokemonEdgeType, from: PokemonNodeType, to: PokemonNodeType, description: string) => ({
  name,
  from,
  to,
  description,
});

/** The bundle's schema.json. */
export const pokemonSchema: SkbSchema = {
  name: 'pokemon',
  version: 1,
  description:
    "Pokémon data from Pokémon Showdown (via @pkmn/dex, generation 9 data): species and their formes, moves, abilities, held items, the 18 types and the 15 egg groups. A pokemon node's text is composed from its data in plain sentences (types, abilities, base stats, weight, gender ratio, generation, evolution method, formes); a move's text gives its type, category, power, accuracy and PP and Showdown's description of its effect; abilities and items carry Showdown's descriptions. Edges: pokemon has_type / has_ability / has_hidden_ability / in_egg_group / learns (any generation, any method) / evolves_into / is_forme_of (forme -> base species) / requires_item (a forme that exists only while holding the item: Mega Stones, plates, memories, masks) / evolves_with_item (evolved species -> the item its evolution uses) / gigantamax_move; move has_type; item has_type (plates, memories, drives, type Z-Crystals), exclusive_to (the item works only for that Pokémon) and upgrades_move (a species Z-Crystal -> the move it turns into a Z-Move); type super_effective_against / not_very_effective_against / no_effect_on (attacking type -> defending type). Ids are <node type>:<Showdown id>, e.g. pokemon:charizard, move:flareblitz, type:fire, egg_group:water1.",
  nodeTypes: [
    {
      name: 'pokemon',
      description: 'a Pokémon species or one of its formes (Mega Evolutions, regional forms, ...)',
    },
    { name: 'move', description: 'a move a Pokémon can use in battle' },
    { name: 'ability', description: 'an ability, a passive effect a Pokémon has in battle' },
    { name: 'item', description: 'an item a Pokémon can hold or that is used on it' },
    { name: 'type', description: 'one of the 18 elemental types of Pokémon and moves' },
    { name: 'egg_group', description: 'a breeding group: Pokémon of a shared egg group can breed' },
  ],
  edgeTypes: [
    edge('has_type', 'pokemon', 'type', "one of the Pokémon's one or two types"),
    edge('has_type', 'move', 'type', "the move's type"),
    edge(
      'has_type',
      'item',
      'type',
      'the type the item is tied to: a plate, memory or drive sets its holder to it, a type Z-Crystal powers up moves of it',
    ),
    edge('has_ability', 'pokemon', 'ability', 'a regular (or special event) ability of the Pokémon'),
    edge('has_hidden_ability', 'pokemon', 'ability', "the Pokémon's hidden ability"),
    edge('evolves_into', 'pokemon', 'pokemon', 'the Pokémon evolves into the other'),
    edge('is_forme_of', 'pokemon', 'pokemon', 'an alternate forme -> its base species'),
    edge('learns', 'pokemon', 'move', 'the Pokémon can learn the move (any generation, any method)'),
    edge('in_egg_group', 'pokemon', 'egg_group', 'the Pokémon belongs to the egg group'),
    edge('requires_item', 'pokemon', 'item', 'the forme exists only while the Pokémon holds the item'),
    edge(
      'evolves_with_item',
      'pokemon',
      'item',
      'this Pokémon is reached by an evolution that uses the item (used on, or held by, its pre-evolution)',
    ),
    edge('gigantamax_move', 'pokemon', 'move', 'the Pokémon can Gigantamax and then uses this G-Max Move'),
    edge('exclusive_to', 'item', 'pokemon', 'the item has its effect only when held by this Pokémon'),
    edge('upgrades_move', 'item', 'move', 'a species Z-Crystal turns this move into an exclusive Z-Move'),
    edge(
      'super_effective_against',
      'type',
      'type',
      'moves of the first type deal double damage to the second',
    ),
    edge(
      'not_very_effective_against',
      'type',
      'type',
      'moves of the first type deal half damage to the second',
    ),
    edge('no_effect_on', 'type', 'type', 'moves of the first type do not affect the second'),
  ],
  targetTypes: ['pokemon', 'move', 'ability', 'item'],
};
