import { describe, expect, it } from 'vitest';
import { namedRelations } from './relation-prior.ts';

const wordnet = ['hypernym', 'instance_hypernym', 'derivationally_related', 'domain_usage', 'domain_topic'];
const debian = ['depends', 'recommends', 'built_from', 'in_section', 'maintainedBy'];

describe('namedRelations', () => {
  it('finds the edge types whose names the words spell, stemmed, the whole name first', () => {
    expect(
      namedRelations("What is a broader category (hypernym) of the noun 'army officer'?", wordnet),
    ).toEqual([
      { edgeType: 'hypernym', score: 1 },
      { edgeType: 'instance_hypernym', score: 0.5 },
    ]);
    expect(namedRelations('Which genome analysis packages depend on libtre5?', debian)).toEqual([
      { edgeType: 'depends', score: 1 },
    ]);
    // camelCase names split like snake_case ones.
    expect(namedRelations('packages maintained by the Debian Python Team', debian)).toEqual([
      { edgeType: 'maintainedBy', score: 1 },
    ]);
  });

  it('needs a content word of the name: function words alone name no relation', () => {
    expect(namedRelations('tools in the section for editors', ['in_section', 'in_category'])).toEqual([
      { edgeType: 'in_section', score: 1 },
    ]);
    expect(namedRelations('a viewer written in Rust', debian)).toEqual([]);
    expect(namedRelations('a word sense related to kindling', wordnet, { minScore: 0.6 })).toEqual([]);
  });
});
