import { describe, expect, it } from 'vitest';
import { parseDataLine } from './parse-data-line.ts';
import { synsetNode } from './synset-node.ts';

describe('synsetNode', () => {
  it('names the node by its first lemma, with spaces for underscores, and keeps the others as aliases', () => {
    const synset = parseDataLine(
      '14351112 26 n 04 migraine 0 megrim 0 sick_headache 0 hemicrania 0 000 | a severe recurring vascular headache  ',
      'data.noun:1',
    );
    expect(synsetNode(synset)).toEqual({
      id: 'wn31:14351112-n',
      type: 'noun.state',
      name: 'migraine',
      aliases: ['megrim', 'sick headache', 'hemicrania'],
      text: 'a severe recurring vascular headache',
      props: { pos: 'n', lexname: 'noun.state' },
    });
  });

  it('keeps pos s for a satellite whose id says a', () => {
    const node = synsetNode(parseDataLine('01255786 00 s 01 crisp 0 000 | pleasantly cold  ', 'data.adj:1'));
    expect(node.id).toBe('wn31:01255786-a');
    expect(node.props).toEqual({ pos: 's', lexname: 'adj.all' });
    expect(node.aliases).toEqual([]);
  });
});
