import type { Species } from '@pkmn/dex';
import type { SkbEdge } from '@weft/spec';
import { nodeId } from './node-id.ts';
import type { PokemonEdgeType } from './pokemon-schema.ts';
import { evolutionItem } from './species-node.ts';

/**
 * The edges a species' own data gives (everything but `learns`). They may name entries that are
 * not nodes (a forme of a left-out kind); the graph drops those.
 */
export function speciesEdges(species: Species): SkbEdge[] {
  const src = nodeId('pokemon', species.name);
  const edges: SkbEdge[] = [];
  const add = (type: PokemonEdgeType, dst: string) => edges.push({ src, type, dst });
  for (const type of species.types) add('has_type', nodeId('type', type));
  // Slot S is a special event ability (Battle Bond Greninja): still one the Pokémon has.
  for (const slot of ['0', '1', 'S'] as const) {
    const ability = species.abilities[slot];
    if (ability) add('has_ability', nodeId('ability', ability));
  }
  if (species.abilities.H) add('has_hidden_ability', nodeId('ability', species.abilities.H));
  for (const group of species.eggGroups) add('in_egg_group', nodeId('egg_group', group));
  for (const evo of species.evos ?? []) add('evolves_into', nodeId('pokemon', evo));
  if (species.baseSpecies !== species.name) add('is_forme_of', nodeId('pokemon', species.baseSpecies));
  for (const item of species.requiredItems ?? (species.requiredItem ? [species.requiredItem] : []))
    add('requires_item', nodeId('item', item));
  const item = evolutionItem(species);
  if (item) add('evolves_with_item', nodeId('item', item));
  if (species.canGigantamax) add('gigantamax_move', nodeId('move', species.canGigantamax));
  return edges;
}
