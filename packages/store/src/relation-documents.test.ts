import { describe, expect, it } from 'vitest';
import type { SkbEdge, SkbNode, SkbSchema } from '@weft/spec';
import { edgeTypeWords, RelationDocuments, relationLabel } from './index.ts';

describe('edgeTypeWords', () => {
  it('writes an edge type name as words', () => {
    expect(edgeTypeWords('part_meronym')).toBe('part meronym');
    expect(edgeTypeWords('depends-on')).toBe('depends on');
    expect(edgeTypeWords('_made.by:')).toBe('made by');
  });

  it('is still exported under its old name, relationLabel', () => {
    expect(relationLabel('part_meronym')).toBe('part meronym');
  });
});

describe('RelationDocuments', () => {
  const schema: SkbSchema = {
    name: 'packages',
    version: 1,
    nodeTypes: [{ name: 'package' }, { name: 'maintainer' }],
    edgeTypes: [{ name: 'maintained_by', from: 'package', to: 'maintainer' }],
    targetTypes: ['package'],
  };
  const nodes: SkbNode[] = [
    { id: 'p1', type: 'package', name: 'electrum', text: 'Easy to use Bitcoin client with a fast wallet' },
    { id: 'p2', type: 'package', name: 'monero', text: 'Private cryptocurrency daemon' },
    { id: 'm1', type: 'maintainer', name: 'Debian Cryptocoin Team', text: '' },
    { id: 'm2', type: 'maintainer', name: 'Jane Roe', text: 'Maintains the wallet tools.' },
  ];
  const edges: SkbEdge[] = [
    { src: 'p1', type: 'maintained_by', dst: 'm1' },
    { src: 'p2', type: 'maintained_by', dst: 'm1' },
    { src: 'p2', type: 'maintained_by', dst: 'm2' },
  ];
  async function* each<T>(items: readonly T[]): AsyncGenerator<T> {
    yield* items;
  }
  const build = (options = {}) => RelationDocuments.build(schema, each(nodes), each(edges), options);

  it('gives a target node with text its neighbours’ names, without their texts', async () => {
    expect((await build()).text('p2')).toBe('maintained by: Debian Cryptocoin Team, Jane Roe');
  });

  it('describes a node with no text of its own by its neighbours’ names and first words', async () => {
    expect((await build({ snippetWords: 4 })).text('m1')).toBe(
      'maintained by: electrum (Easy to use Bitcoin …), monero (Private cryptocurrency daemon)',
    );
  });

  it('describes a node outside the target types by its neighbours too, though it has text', async () => {
    expect((await build({ snippetWords: 2 })).text('m2')).toBe(
      'maintained by: monero (Private cryptocurrency …)',
    );
  });

  it('describes a target node with no text of its own by its neighbours', async () => {
    const documents = await RelationDocuments.build(
      { ...schema, targetTypes: ['package', 'maintainer'] },
      each(nodes),
      each(edges),
      { snippetWords: 2 },
    );
    expect(documents.text('m1')).toBe(
      'maintained by: electrum (Easy to …), monero (Private cryptocurrency …)',
    );
    expect(documents.text('m2')).toBe('maintained by: monero');
  });

  it('quotes names only when asked for no snippet words', async () => {
    expect((await build({ snippetWords: 0 })).text('m1')).toBe('maintained by: electrum, monero');
  });
});
