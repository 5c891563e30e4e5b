import type { Item } from '@pkmn/dex';
import type { SkbEdge } from '@weft/spec';
import { nodeId } from './node-id.ts';

/**
 * The edges an item's data gives: the type a plate, memory, drive or type Z-Crystal stands for,
 * the Pokémon a signature item works for (Showdown's `itemUser`, which also covers Mega Stones),
 * and the move a species Z-Crystal upgrades.
 */
export function itemEdges(item: Item): SkbEdge[] {
  const src = nodeId('item', item.name);
  const edges: SkbEdge[] = [];
  const type = item.onPlate ?? item.onMemory ?? item.onDrive ?? item.zMoveType;
  if (type) edges.push({ src, type: 'has_type', dst: nodeId('type', type) });
  for (const user of item.itemUser ?? [])
    edges.push({ src, type: 'exclusive_to', dst: nodeId('pokemon', user) });
  if (item.zMoveFrom) edges.push({ src, type: 'upgrades_move', dst: nodeId('move', item.zMoveFrom) });
  return edges;
}
