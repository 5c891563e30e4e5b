import type { Mention } from '@weft/linker';

/**
 * What says that a mention names the entity a question is about, rather than using a common word:
 * things of the mention and of the KB's names, never of how questions are phrased (so queries
 * synthesised from the KB can teach them). Order = the model's feature order.
 */
export const mentionFeatures = [
  'specificity',
  'rarity',
  'namesakes',
  'words',
  'quoted',
  'capitalised',
  'shadowed',
  'match',
] as const;

export function mentionRow(mention: Mention): number[] {
  return [
    mention.specificity,
    mention.rarity,
    Math.log1p(mention.namesakes),
    Math.min(mention.words, 4) / 4,
    mention.quoted ? 1 : 0,
    mention.capitalised ? 1 : 0,
    mention.shadowed ? 1 : 0,
    mention.nodes[0]?.score ?? 0,
  ];
}
