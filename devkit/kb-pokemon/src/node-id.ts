import { toID } from '@pkmn/dex';
import type { PokemonNodeType } from './pokemon-schema.ts';

/**
 * A node id: the node type and Showdown's own id of the name (`pokemon:charizardmegax`,
 * `move:flareblitz`, `egg_group:water1`). Showdown ids are stable across releases and readable, and
 * the type prefix keeps a move and an item of the same name apart.
 */
export function nodeId(type: PokemonNodeType, name: string): string {
  return `${type}:${toID(name)}`;
}
