import type { Move } from '@pkmn/dex';
import type { SkbNode } from '@weft/spec';
import { availabilitySentence } from './availability-sentence.ts';
import { indefiniteArticle } from './indefinite-article.ts';
import { nodeId } from './node-id.ts';

// Showdown's move flags that players name a move by ("a sound move", "a punching move"); the
// others (mirror, protect, metronome, ...) are engine bookkeeping.
const flagSentences: Readonly<Record<string, string>> = {
  contact: 'It makes contact.',
  sound: 'It is a sound-based move.',
  punch: 'It is a punching move.',
  bite: 'It is a biting move.',
  slicing: 'It is a slicing move.',
  wind: 'It is a wind move.',
  pulse: 'It is a pulse move.',
  ballistic: 'It is a ball or bomb move.',
  bullet: 'It is a ball or bomb move.',
  dance: 'It is a dance move.',
  powder: 'It is a powder move.',
  defrost: 'It thaws the user out if the user is frozen.',
};

const targetSentences: Readonly<Record<string, string>> = {
  allAdjacentFoes: 'It hits all adjacent opponents.',
  allAdjacent: 'It hits every adjacent Pokémon, allies included.',
  randomNormal: 'It hits a random opponent.',
  any: 'It can target any Pokémon on the field, even a non-adjacent one.',
};

function statsSentence(move: Move): string {
  const stats: string[] = [];
  if (move.category !== 'Status')
    stats.push(move.basePower > 0 ? `${move.basePower} power` : 'variable power');
  if (move.accuracy !== true) stats.push(`${move.accuracy}% accuracy`);
  stats.push(`${move.pp} PP`);
  const last = stats.pop();
  const list = stats.length > 0 ? `${stats.join(', ')} and ${last}` : last;
  return `${move.name} is ${indefiniteArticle(move.type)} ${move.type}-type ${move.category.toLowerCase()} move introduced in Generation ${move.gen}, with ${list}.`;
}

/** A move as a node: its numbers in a sentence, Showdown's description, then its notable traits. */
export function moveNode(move: Move): SkbNode {
  const sentences = [statsSentence(move), move.desc || move.shortDesc];
  if (move.accuracy === true && move.target !== 'self' && move.category !== 'Status')
    sentences.push('It never misses.');
  if (move.priority !== 0) sentences.push(`It has priority ${move.priority > 0 ? '+' : ''}${move.priority}.`);
  const target = targetSentences[move.target];
  if (target) sentences.push(target);
  // A Set: `ballistic` and `bullet` are the same trait under two names across Showdown versions.
  const flags = new Set(Object.keys(move.flags).flatMap((flag) => flagSentences[flag] ?? []));
  sentences.push(...flags);
  if (move.isZ) sentences.push('It is a Z-Move.');
  if (move.isMax === true) sentences.push('It is a Max Move, used by Dynamaxed Pokémon.');
  else if (move.isMax) sentences.push(`It is the G-Max Move of Gigantamax ${move.isMax}.`);
  const availability = availabilitySentence(move.isNonstandard);
  if (availability) sentences.push(availability);
  return {
    id: nodeId('move', move.name),
    type: 'move',
    name: move.name,
    text: sentences.join(' '),
    props: {
      moveType: move.type,
      category: move.category,
      basePower: move.basePower,
      accuracy: move.accuracy === true ? 'always' : move.accuracy,
      pp: move.pp,
      priority: move.priority,
      gen: move.gen,
    },
  };
}
