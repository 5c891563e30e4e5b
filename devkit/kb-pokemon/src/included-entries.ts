import type { Ability, Item, ModdedDex, Move, Nonstandard, Species, Type } from '@pkmn/dex';

/** The dex entries that become nodes. */
export interface IncludedEntries {
  readonly species: readonly Species[];
  readonly moves: readonly Move[];
  readonly abilities: readonly Ability[];
  readonly items: readonly Item[];
  readonly types: readonly Type[];
  readonly eggGroups: readonly string[];
}

/**
 * Showdown's `isNonstandard` labels that still describe data of the main-series games: `Past`
 * (in an earlier generation's games but not in Scarlet/Violet: Mega Evolutions, Z-Moves, many
 * species), `Unobtainable` (in the games' data but not legally usable, e.g. Cut, V-create) and
 * `Gigantamax` (G-Max Moves). Left out: `CAP` and `Custom` (fan-made and Showdown-only entries),
 * `LGPE` (the Let's Go partner Pokémon and their moves, which Showdown keeps apart from the main
 * data) and `Future` (entries for games newer than Showdown's generation-9 data, still provisional).
 */
const gameData = new Set<Nonstandard | null>([null, 'Past', 'Unobtainable', 'Gigantamax']);

const isGameData = (entry: { readonly isNonstandard: Nonstandard | null }) =>
  gameData.has(entry.isNonstandard);

/**
 * Selects the entries of a dex (use `Dex.forGen(9)`). Besides the rule above it drops entries that
 * would only duplicate others: cosmetic formes (same data as their species, listed as its aliases
 * instead), the 17 typed copies of Hidden Power (no text of their own), the `No Ability`
 * placeholder and the Stellar type (a Terastal-only type that no Pokémon or move has).
 */
export function includedEntries(dex: ModdedDex): IncludedEntries {
  const species = dex.species.all().filter((s) => isGameData(s) && !s.isCosmeticForme);
  // By data key: `moves.all()` lists the Hidden Power copies under the id `hiddenpower` again.
  const moves = Object.entries(dex.data.Moves)
    .filter(([, data]) => data.realMove === undefined)
    .map(([id]) => dex.moves.get(id))
    .filter(isGameData);
  const abilities = dex.abilities.all().filter((a) => isGameData(a) && a.id !== 'noability');
  const items = dex.items.all().filter(isGameData);
  const types = dex.types.all().filter((t) => isGameData(t) && t.name !== 'Stellar');
  const eggGroups = [...new Set(species.flatMap((s) => s.eggGroups))].sort();
  return { species, moves, abilities, items, types, eggGroups };
}
