import { describe, expect, it } from 'vitest';
import { answerTypes } from './answer-type.ts';

const answerType = (question: string, nodeTypes: readonly string[]) => {
  const asked = answerTypes(question, nodeTypes);
  return asked.length === 1 ? asked[0] : undefined;
};

const types = ['pokemon', 'move', 'ability', 'egg_group', 'type'];

describe('answerType', () => {
  it('reads the type a wh-phrase asks for, after the phrases that describe other nodes', () => {
    expect(answerType('The Pokémon that evolves into Alcremie: which of its moves restore HP?', types)).toBe(
      'move',
    );
    expect(answerType('Which abilities are found on Pokémon of the Fairy type?', types)).toBe('ability');
    expect(answerType('What kind of egg group holds Ditto?', types)).toBe('egg_group');
  });

  it('reads a question without a wh-phrase by its first noun phrase, diacritics aside', () => {
    expect(answerType('Fairy-type Pokémon with the ability that heals when it eats a Berry', types)).toBe(
      'pokemon',
    );
    expect(answerType('Multi-hit moves known by the Poison Ultra Beast', types)).toBe('move');
  });

  it('reads past one descriptive word, a "which one" and a possessive owner', () => {
    expect(
      answerType(
        "Tyrogue's evolutions: which hidden ability doubles Speed once the held item is gone?",
        types,
      ),
    ).toBe('ability');
    // After an auxiliary the noun is the subject, not what is asked for.
    expect(answerType('Multi-hit moves: what do Pokémon need to learn them?', types)).toBe('move');
    expect(
      answerType(
        'Among the abilities of Pokémon that can learn Spore, which one heals the poisoned user?',
        types,
      ),
    ).toBe('ability');
    expect(answerType("Pikachu's moves that always paralyze the foe", types)).toBe('move');
  });

  it('says nothing when the asked-for noun names no type, or the first phrase owns something', () => {
    expect(answerType('The ancient bug Pokémon: which cartridge changes its signature move?', types)).toBe(
      undefined,
    );
    expect(answerType("both Pokémon's HP get set to the average of the two", types)).toBe(undefined);
    expect(answerType('tool inserted into a shell pipe to watch the data flowing through it', types)).toBe(
      undefined,
    );
  });

  it('reads a family of types from a head that names it: `adj.` types for "which adjective"', () => {
    const lexical = [
      'adj.all',
      'adj.pert',
      'adv.all',
      'noun.person',
      'noun.body',
      'verb.motion',
      'verb.body',
    ];
    expect(
      answerTypes('Which adjective close in meaning to cold describes a pleasant cold?', lexical),
    ).toEqual(['adj.all', 'adj.pert']);
    expect(answerTypes('Which verbs mean walking in a relaxed way?', lexical)).toEqual([
      'verb.motion',
      'verb.body',
    ]);
    expect(answerTypes('Which adverb means quickly?', lexical)).toEqual(['adv.all']);
    // A type of its own is read before any family; a head that names neither gives none.
    expect(answerTypes('Which noun person was a president?', lexical)).toEqual(['noun.person']);
    expect(answerTypes('Which word means happy?', lexical)).toEqual([]);
    // Names without families (no shared first segment) read as before.
    expect(answerTypes('Which abilities do Fairy Pokémon have?', types)).toEqual(['ability']);
  });
});
