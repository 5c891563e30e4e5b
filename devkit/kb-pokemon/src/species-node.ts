import type { Species } from '@pkmn/dex';
import type { SkbNode } from '@weft/spec';
import { englishList } from './english-list.ts';
import { indefiniteArticle } from './indefinite-article.ts';
import { nodeId } from './node-id.ts';

const regionalAdjectives: Readonly<Record<string, string>> = {
  Alola: 'Alolan',
  Galar: 'Galarian',
  Hisui: 'Hisuian',
  Paldea: 'Paldean',
};

// Showdown's species tags in players' words: its "Sub-Legendary" is what games and players call Legendary.
const tagWords: Readonly<Record<string, string>> = {
  'Sub-Legendary': 'Legendary',
  'Restricted Legendary': 'Restricted Legendary',
  Mythical: 'Mythical',
  'Ultra Beast': 'Ultra Beast',
  Paradox: 'Paradox',
};

/**
 * The names players use for a forme, which Showdown's hyphenated names are not: "Mega Charizard X",
 * "Alolan Raichu", "Primal Groudon", "Gigantamax Snorlax". Empty for other formes.
 */
export function formeAliases(species: Species): string[] {
  const base = species.baseSpecies;
  const [first = '', ...rest] = species.forme.split('-');
  const suffix = rest.length > 0 ? ` (${rest.join(' ')})` : '';
  if (first === 'Mega') return [`Mega ${base}${rest.length > 0 ? ` ${rest.join(' ')}` : ''}`];
  if (first === 'Primal') return [`Primal ${base}`];
  if (species.forme.endsWith('Gmax')) return [`Gigantamax ${base}`];
  const regional = regionalAdjectives[first];
  if (regional) return [`${regional} ${base}${suffix}`];
  return [];
}

function formeSentences(species: Species): string[] {
  if (!species.forme) return [];
  const base = species.baseSpecies;
  const requiredItems = species.requiredItems ?? (species.requiredItem ? [species.requiredItem] : []);
  const out: string[] = [];
  const regional = regionalAdjectives[species.forme.split('-')[0] ?? ''];
  if (species.isMega) {
    out.push(
      `It is a Mega Evolution of ${base}, triggered in battle by ${
        species.requiredMove ? `knowing the move ${species.requiredMove}` : `holding ${requiredItems[0]}`
      }.`,
    );
  } else if (species.isPrimal) {
    out.push(`It is the Primal Reversion of ${base}, triggered in battle by holding ${requiredItems[0]}.`);
  } else if (species.forme.endsWith('Gmax')) {
    out.push(
      `It is the Gigantamax form of ${species.changesFrom ?? base}, which appears only when it Dynamaxes.`,
    );
  } else {
    out.push(
      regional
        ? `It is the ${regional} regional form of ${base}.`
        : `It is the ${species.forme.replace(/-/g, ' ')} forme of ${base}.`,
    );
    if (requiredItems.length > 0)
      out.push(`It takes this form while holding ${englishList(requiredItems, 'or')}.`);
    if (species.requiredAbility)
      out.push(`It changes into this form in battle through its ability ${species.requiredAbility}.`);
    if (species.requiredMove) out.push(`This form is tied to the move ${species.requiredMove}.`);
    if (species.requiredTeraType)
      out.push(`It takes this form when it Terastallizes (its Tera Type is ${species.requiredTeraType}).`);
    if (species.battleOnly) out.push('It appears only during battle.');
  }
  return out;
}

/** The item an evolution uses; Showdown writes Kleavor's Black Augurite as a condition, not an item. */
export function evolutionItem(species: Species): string | undefined {
  return species.evoItem ?? (species.evoType === 'useItem' ? species.evoCondition : undefined);
}

const withArticle = (name = '') => `${indefiniteArticle(name)} ${name}`;

function evolutionSentence(species: Species): string | undefined {
  if (!species.prevo) return undefined;
  const item = evolutionItem(species);
  const parts = [`It evolves from ${species.prevo}`];
  switch (species.evoType) {
    case 'levelFriendship':
      parts.push('when levelled up with high friendship');
      break;
    case 'useItem':
      parts.push(`when ${withArticle(item)} is used on it`);
      break;
    case 'trade':
      parts.push(item ? `when traded while holding ${withArticle(item)}` : 'when traded');
      break;
    case 'levelHold':
      parts.push(`when levelled up while holding ${withArticle(item)}`);
      break;
    case 'levelMove':
      parts.push(`when levelled up while knowing the move ${species.evoMove}`);
      break;
    case 'levelExtra':
      parts.push('when levelled up');
      break;
  }
  if (species.evoLevel) parts.push(`at level ${species.evoLevel}`);
  const condition = species.evoType === 'useItem' && !species.evoItem ? undefined : species.evoCondition;
  if (condition) parts.push(species.evoType === 'other' ? `(${condition})` : condition);
  if (species.evoRegion) parts.push(`in the ${species.evoRegion} region`);
  return `${parts.join(' ')}.`;
}

function genderSentence(species: Species): string {
  if (species.gender === 'N') return 'It has no gender.';
  if (species.gender === 'M') return 'It is always male.';
  if (species.gender === 'F') return 'It is always female.';
  const male = species.genderRatio.M;
  if (male === 0.5) return 'Males and females are equally common.';
  return `${male * 100}% of them are male and ${(1 - male) * 100}% female.`;
}

/**
 * A species (or forme) as a node. Showdown has no Pokédex entries, so the document is the data
 * written out as plain sentences (types, abilities, base stats, weight, gender, egg groups,
 * evolution method, formes), the way a person would look it up. Height and colour are not in
 * @pkmn/dex. `kept` holds the names of the species that are nodes, so formes left out are not named;
 * cosmetic formes (same data) become aliases.
 */
export function speciesNode(species: Species, kept: ReadonlySet<string>): SkbNode {
  const kind = species.tags.map((tag) => `${tagWords[tag]} `).join('');
  const types =
    species.types.length === 2
      ? `${species.types[0]}- and ${species.types[1]}-type`
      : `${species.types[0]}-type`;
  const sentences = [
    `${species.name} is ${indefiniteArticle(types)} ${types} ${kind}Pokémon, number ${species.num} in the National Pokédex, introduced in Generation ${species.gen}.`,
    ...formeSentences(species),
  ];
  const regular = [species.abilities[0], species.abilities[1]].flatMap((a) => (a ? [a] : []));
  sentences.push(`Its ability is ${englishList(regular, 'or')}.`);
  if (species.abilities.H) sentences.push(`Its hidden ability is ${species.abilities.H}.`);
  if (species.abilities.S) sentences.push(`A special version of it has the ability ${species.abilities.S}.`);
  const s = species.baseStats;
  sentences.push(
    `Its base stats are ${s.hp} HP, ${s.atk} Attack, ${s.def} Defense, ${s.spa} Special Attack, ${s.spd} Special Defense and ${s.spe} Speed, a total of ${species.bst}.`,
  );
  if (species.weightkg > 0) sentences.push(`It weighs ${species.weightkg} kg.`);
  sentences.push(genderSentence(species));
  sentences.push(
    species.eggGroups.includes('Undiscovered')
      ? 'It is in the Undiscovered egg group, so it cannot breed.'
      : `It is in the ${englishList(species.eggGroups)} egg group${species.eggGroups.length > 1 ? 's' : ''}.`,
  );
  const evolution = evolutionSentence(species);
  if (evolution) sentences.push(evolution);
  const evos = (species.evos ?? []).filter((name) => kept.has(name));
  if (evos.length > 0) sentences.push(`It evolves into ${englishList(evos)}.`);
  else if (species.prevo) sentences.push('It is fully evolved.');
  else if (!species.forme) sentences.push('It does not evolve.');
  const formes = (species.otherFormes ?? []).filter((name) => kept.has(name));
  if (formes.length > 0) sentences.push(`Its other formes are ${englishList(formes)}.`);
  if (species.canGigantamax)
    sentences.push(`It can Gigantamax, which gives it the move ${species.canGigantamax}.`);
  if (species.isNonstandard === 'Past') sentences.push('It is not available in Pokémon Scarlet and Violet.');

  const aliases = [...formeAliases(species), ...(species.cosmeticFormes ?? [])];
  return {
    id: nodeId('pokemon', species.name),
    type: 'pokemon',
    name: species.name,
    ...(aliases.length > 0 ? { aliases } : {}),
    text: sentences.join(' '),
    props: {
      num: species.num,
      gen: species.gen,
      ...(species.forme ? { forme: species.forme } : {}),
      hp: s.hp,
      atk: s.atk,
      def: s.def,
      spa: s.spa,
      spd: s.spd,
      spe: s.spe,
      bst: species.bst,
      // Gigantamax formes have no weight of their own (0 in the data).
      ...(species.weightkg > 0 ? { weightkg: species.weightkg } : {}),
    },
  };
}
