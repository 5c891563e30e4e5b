import { describe, expect, it } from 'vitest';
import { exclusions, matchesExclusion } from './exclusions.ts';

describe('exclusions', () => {
  it('reads "(not X)", "(Y, not X)", ", not X", "other than X", "except X"; the rest is kept', () => {
    expect(exclusions('Java libraries maintained by Debian IoT Maintainers (not documentation)')).toEqual({
      kept: 'Java libraries maintained by Debian IoT Maintainers',
      excluded: 'documentation',
    });
    expect(
      exclusions('PHP extensions that recommend ghostscript (the runtime extensions, not -all-dev)'),
    ).toEqual({
      kept: 'PHP extensions that recommend ghostscript (the runtime extensions)',
      excluded: '-all-dev',
    });
    expect(exclusions('voices for languages other than Czech, packaged by the same people')).toEqual({
      kept: 'voices for languages, packaged by the same people',
      excluded: 'Czech',
    });
    expect(exclusions('every camera, not the compact ones').excluded).toBe('the compact ones');
    expect(exclusions('birds except penguins').excluded).toBe('penguins');
  });

  it('leaves a property stated with a negation alone: the text may say it either way', () => {
    const question = "Which Pokémon that can have Magic Guard doesn't evolve at all?";
    expect(exclusions(question)).toEqual({ kept: question, excluded: '' });
    expect(exclusions('a part of the eye')).toEqual({ kept: 'a part of the eye', excluded: '' });
  });
});

describe('matchesExclusion', () => {
  it('needs every content word of the exclusion, stemmed', () => {
    expect(matchesExclusion('transitional packages', 'This is a transitional dummy package.')).toBe(true);
    expect(matchesExclusion('transitional packages', 'DNS client utilities shipped as packages')).toBe(false);
    expect(matchesExclusion('-all-dev', 'php-imagick-all-dev all extensions for development')).toBe(true);
    expect(matchesExclusion('', 'anything')).toBe(false);
  });
});
