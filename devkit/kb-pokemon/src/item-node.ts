import type { Item } from '@pkmn/dex';
import type { SkbNode } from '@weft/spec';
import { availabilitySentence } from './availability-sentence.ts';
import { nodeId } from './node-id.ts';

function itemKind(item: Item): string {
  if (item.isBerry) return 'a Berry';
  if (item.isPokeball) return 'a Poké Ball';
  if (item.isGem) return 'a Gem';
  if (item.megaStone) return 'a Mega Stone';
  if (item.zMove) return 'a Z-Crystal';
  return 'an item';
}

/** An item as a node: its kind, when it came, Showdown's description and its availability. */
export function itemNode(item: Item): SkbNode {
  const sentences = [
    `${item.name} is ${itemKind(item)} introduced in Generation ${item.gen}.`,
    item.desc || item.shortDesc,
  ];
  const availability = availabilitySentence(item.isNonstandard);
  if (availability) sentences.push(availability);
  return {
    id: nodeId('item', item.name),
    type: 'item',
    name: item.name,
    text: sentences.join(' '),
    props: { gen: item.gen },
  };
}
