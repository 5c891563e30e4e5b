import { describe, expect, it } from 'vitest';
import { namesSpelledIn } from './anchor-mentions.ts';

describe('namesSpelledIn', () => {
  it('finds a name or any significant word of it, case-insensitively, as whole words', () => {
    expect(namesSpelledIn('Which moves can charizard learn?', ['Charizard'])).toEqual(['Charizard']);
    expect(namesSpelledIn('Pokémon in the water-loving egg group', ['Water 1'])).toEqual(['Water 1']);
    expect(namesSpelledIn('the type immune to Psychic moves', ['Dark'])).toEqual([]);
    expect(namesSpelledIn('the ICE-type move', ['Ice'])).toEqual(['Ice']);
    expect(namesSpelledIn('a device that slices', ['Ice'])).toEqual([]);
    expect(namesSpelledIn('the Mime who copies', ['Mr. Mime'])).toEqual(['Mr. Mime']);
  });

  it('ignores short and function words of a name, and accents', () => {
    expect(namesSpelledIn('the heart of the matter', ['Heart of the Sea'])).toEqual(['Heart of the Sea']);
    expect(namesSpelledIn('one of the items', ['Heart of the Sea'])).toEqual([]);
    expect(namesSpelledIn('a Human-like body', ['Human-Like'])).toEqual(['Human-Like']);
    expect(namesSpelledIn('looks like a cat', ['Human-Like'])).toEqual([]);
    expect(namesSpelledIn('Flabebe flowers', ['Flabébé'])).toEqual(['Flabébé']);
    expect(namesSpelledIn('the 2nd form', ['Porygon2'])).toEqual([]);
  });
});
