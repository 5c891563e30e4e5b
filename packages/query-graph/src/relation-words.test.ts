import { describe, expect, it } from 'vitest';
import { RelationWords } from './relation-words.ts';

const words = new RelationWords({
  edgeTypes: [
    {
      name: 'hypernym',
      from: 'synset',
      to: 'synset',
      description: 'src is a kind of dst (dst is more general)',
    },
    {
      name: 'part_meronym',
      from: 'synset',
      to: 'synset',
      description: 'dst is a part of src (src is the whole)',
    },
    { name: 'antonym', from: 'synset', to: 'synset', description: 'src and dst have opposite meanings' },
    { name: 'depends', from: 'package', to: 'package', description: 'Depends on the package' },
  ],
});

describe('RelationWords.direction', () => {
  it('reads the role a mention takes from where it stands around the relation word', () => {
    expect(words.direction('a part of the eye', 'eye', 'part_meronym')).toBe('out');
    expect(words.direction('which parts does a hand have?', 'hand', 'part_meronym')).toBe('out');
    expect(words.direction('what is a knee part of?', 'knee', 'part_meronym')).toBe('in');
    expect(words.direction('a kind of dog', 'dog', 'hypernym')).toBe('in');
    expect(words.direction('a bat is a kind of what?', 'bat', 'hypernym')).toBe('out');
  });

  it('says nothing when the order does not tell', () => {
    // A content word between the relation word and the mention.
    expect(words.direction('what kind of thing is a whale?', 'whale', 'hypernym')).toBeUndefined();
    // Both roles on one side of the word: a symmetric relation.
    expect(words.direction('the opposite of happy', 'happy', 'antonym')).toBeUndefined();
    // A description that names no roles.
    expect(words.direction('packages that depend on libc6', 'libc6', 'depends')).toBeUndefined();
    // The question does not spell a relation word, or not the mention.
    expect(words.direction('the eye', 'eye', 'part_meronym')).toBeUndefined();
    expect(words.direction('a part of the eye', 'ear', 'part_meronym')).toBeUndefined();
  });
});
