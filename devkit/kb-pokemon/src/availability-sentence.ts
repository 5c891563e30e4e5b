import type { Nonstandard } from '@pkmn/dex';

/**
 * What Showdown's generation-9 `isNonstandard` label means for a player, as a sentence; undefined
 * for entries of Scarlet and Violet. Kept in the text because "which of these is no longer in the
 * current games" is a question players ask.
 */
export function availabilitySentence(isNonstandard: Nonstandard | null): string | undefined {
  if (isNonstandard === 'Past') return 'It is not available in Pokémon Scarlet and Violet.';
  if (isNonstandard === 'Unobtainable' || isNonstandard === 'Gigantamax')
    return 'It cannot be obtained in Pokémon Scarlet and Violet.';
  return undefined;
}
