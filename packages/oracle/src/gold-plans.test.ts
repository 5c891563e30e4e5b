import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { InMemoryGraphStore, toySkb } from '@weft/core/test';
import type { SkbQuery } from '@weft/spec';
import { describe, expect, it } from 'vitest';
import {
  goldAnnotations,
  mentionIn,
  parseRelationalPart,
  questionRestriction,
  requirementWords,
  resolveGoldPlans,
} from './gold-plans.ts';
import { readAnnotations, relationPaths } from './relational-part.ts';

describe('parseRelationalPart (WordNet)', () => {
  it('reads the direction from the anchor towards the answer X', () => {
    expect(parseRelationalPart('X --hypernym--> A; every hyponym of A is a leaf', ['wn:a'])).toEqual({
      paths: [{ anchor: 'wn:a', hops: [{ edgeType: 'hypernym', direction: 'in' }] }],
    });
    expect(parseRelationalPart('A --part_meronym--> X; no X has parts', ['wn:a']).paths).toEqual([
      { anchor: 'wn:a', hops: [{ edgeType: 'part_meronym', direction: 'out' }] },
    ]);
  });

  it('takes the first alternative, reads chains, undirected edges and two anchors', () => {
    expect(
      parseRelationalPart('X --hypernym--> A or X --hypernym--> Y --hypernym--> A; …', ['wn:a']).paths,
    ).toEqual([{ anchor: 'wn:a', hops: [{ edgeType: 'hypernym', direction: 'in' }] }]);
    expect(
      parseRelationalPart(
        'A --member_meronym--> G --member_meronym--> X (e.g. family -> genus -> species); C = …',
        ['wn:a'],
      ).paths,
    ).toEqual([
      {
        anchor: 'wn:a',
        hops: [
          { edgeType: 'member_meronym', direction: 'out' },
          { edgeType: 'member_meronym', direction: 'out' },
        ],
      },
    ]);
    expect(
      parseRelationalPart(
        'X (noun.person) --derivationally_related-- V --hypernym--> A (A a verb): people named after a way of doing A',
        ['wn:a'],
      ).paths,
    ).toEqual([
      {
        anchor: 'wn:a',
        hops: [
          { edgeType: 'hypernym', direction: 'in' },
          { edgeType: 'derivationally_related', direction: 'both' },
        ],
      },
    ]);
    expect(
      parseRelationalPart('X --instance_hypernym--> A1 and A2 --part_meronym--> X (e.g. cities)', [
        'wn:1',
        'wn:2',
      ]).paths,
    ).toEqual([
      { anchor: 'wn:1', hops: [{ edgeType: 'instance_hypernym', direction: 'in' }] },
      { anchor: 'wn:2', hops: [{ edgeType: 'part_meronym', direction: 'out' }] },
    ]);
    expect(
      parseRelationalPart('X --hypernym-->+ A1 (any depth) and X --domain_topic--> A2', ['wn:1', 'wn:2'])
        .paths,
    ).toEqual([
      { anchor: 'wn:1', hops: [{ edgeType: 'hypernym', direction: 'in' }] },
      { anchor: 'wn:2', hops: [{ edgeType: 'domain_topic', direction: 'in' }] },
    ]);
    expect(
      parseRelationalPart('X --domain_topic--> A and type(X) = L (anchor 2 is a node type)', [
        'wn:1',
        'noun.relation',
      ]),
    ).toEqual({
      paths: [{ anchor: 'wn:1', hops: [{ edgeType: 'domain_topic', direction: 'in' }] }],
      typeLabel: 'L',
    });
    expect(parseRelationalPart('no relation here', ['wn:1']).paths).toEqual([]);
  });

  it("reads the Pokémon KB's notation: anchors by id in parentheses, X:<type>, single-dash edges", () => {
    expect(
      parseRelationalPart(
        'X:move <-learns- Y <-is_forme_of- Lopunny-Mega (pokemon:lopunnymega) AND X -has_type-> Fighting (type:fighting)',
        ['pokemon:lopunnymega', 'type:fighting'],
      ),
    ).toEqual({
      paths: [
        {
          anchor: 'pokemon:lopunnymega',
          hops: [
            { edgeType: 'is_forme_of', direction: 'out' },
            { edgeType: 'learns', direction: 'out' },
          ],
        },
        { anchor: 'type:fighting', hops: [{ edgeType: 'has_type', direction: 'in' }] },
      ],
      typeLabel: 'move',
    });
    expect(
      parseRelationalPart('X:pokemon -has_hidden_ability-> Speed Boost (ability:speedboost)', [
        'ability:speedboost',
      ]).paths,
    ).toEqual([
      { anchor: 'ability:speedboost', hops: [{ edgeType: 'has_hidden_ability', direction: 'in' }] },
    ]);
  });
});

const skb = toySkb();
const query = (id: string, meta: Record<string, unknown>, answers = ['p:nikkor']): SkbQuery => ({
  id,
  query: `question ${id}`,
  answers,
  split: 'val',
  meta,
});

describe('relationPaths', () => {
  it('reads each constraint from its anchor: the steps reversed, each turned around', () => {
    const steps = [
      { edge: 'learns', direction: 'in' as const },
      { edge: 'evolves_into', direction: 'out' as const },
    ];
    expect(relationPaths({ constraints: [{ anchor: 'pokemon:a', path: steps }] })).toEqual([
      {
        anchor: 'pokemon:a',
        hops: [
          { edgeType: 'evolves_into', direction: 'in' },
          { edgeType: 'learns', direction: 'out' },
        ],
      },
    ]);
  });
});

describe('goldAnnotations', () => {
  it('prefers meta.paths, then the annotations (reversed), then the relational part', () => {
    const annotations = new Map([
      [
        'q2',
        {
          answerType: 'product',
          constraints: [{ anchor: 'b:nikon', path: [{ edge: 'made_by', direction: 'out' as const }] }],
        },
      ],
    ]);
    const gold = goldAnnotations(
      [
        query('q1', {
          anchors: ['b:nikon'],
          paths: [{ anchor: 'b:nikon', hops: [{ edgeType: 'made_by', direction: 'in' }] }],
          relational_part: 'X --in_category--> A',
          textual_requirement: 'for birds',
        }),
        query('q2', { anchors: ['b:nikon'], relational_part: 'X --in_category--> A' }),
        query('q3', { anchors: ['c:lenses', 'product'], relational_part: 'X --in_category--> A' }),
        query('q4', { anchors: ['b:nikon'] }),
        query('q5', { template: 'text only' }),
      ],
      { schema: skb.schema, annotations },
    );
    expect(gold.map((g) => [g.queryId, g.source])).toEqual([
      ['q1', 'meta.paths'],
      ['q2', 'annotations'],
      ['q3', 'relational_part'],
      ['q4', 'none'],
    ]);
    expect(gold[0]).toMatchObject({
      restriction: 'for birds',
      paths: [{ anchor: 'b:nikon', hops: [{ edgeType: 'made_by', direction: 'in' }] }],
    });
    // The annotation runs from the answer to the anchor: made_by out from the product = in from the brand.
    expect(gold[1]!.paths).toEqual([{ anchor: 'b:nikon', hops: [{ edgeType: 'made_by', direction: 'in' }] }]);
    expect(gold[1]!.answerType).toBe('product');
    // A node type among the anchors is the answers' type, not an anchor.
    expect(gold[2]).toMatchObject({ anchors: ['c:lenses'], answerType: 'product' });
    expect(gold[2]!.paths).toEqual([
      { anchor: 'c:lenses', hops: [{ edgeType: 'in_category', direction: 'in' }] },
    ]);
  });

  it('reads a bundle’s annotations file', async () => {
    const bundle = await mkdtemp(path.join(os.tmpdir(), 'weft-oracle-'));
    try {
      await mkdir(path.join(bundle, 'queries'));
      await writeFile(
        path.join(bundle, 'queries', 'hybrid.annotations.jsonl'),
        `${JSON.stringify({ id: 'q1', relational_part: { answerType: 'product', constraints: [] } })}\n{"id":"q2"}\n`,
      );
      const read = await readAnnotations(bundle, 'hybrid');
      expect([...read.keys()]).toEqual(['q1']);
      expect((await readAnnotations(bundle, 'other')).size).toBe(0);
    } finally {
      await rm(bundle, { recursive: true, force: true });
    }
  });
});

describe('resolveGoldPlans', () => {
  it('names the anchors, types the answers and settles open directions on the graph', async () => {
    const graph = new InMemoryGraphStore(skb);
    const [plan] = await resolveGoldPlans(
      [
        {
          queryId: 'q1',
          question: 'which lens works with the D850',
          anchors: ['p:d850', 'b:missing'],
          paths: [
            { anchor: 'p:d850', hops: [{ edgeType: 'compatible_with', direction: 'both' }] },
            { anchor: 'b:missing', hops: [{ edgeType: 'made_by', direction: 'in' }] },
          ],
          restriction: 'telephoto',
          source: 'relational_part',
        },
      ],
      { graph, answers: new Map([['q1', ['p:nikkor']]]) },
    );
    expect(plan).toEqual({
      queryId: 'q1',
      question: 'which lens works with the D850',
      anchors: [{ id: 'p:d850', name: 'Nikon D850', type: 'product', mention: 'Nikon D850' }],
      // p:nikkor -compatible_with-> p:d850: from the anchor the edge is followed backwards.
      paths: [{ anchor: 0, hops: [{ edgeType: 'compatible_with', direction: 'in' }] }],
      targetTypes: ['product'],
      // What a model can read off the question: the question without the anchor's mention.
      restriction: 'which lens works with the D850',
      // As the rerankers and the critic see them.
      answers: [{ id: 'p:nikkor', name: 'AF-S Nikkor 200-500mm', type: 'product' }],
    });
    const [judged] = await resolveGoldPlans(
      [
        {
          queryId: 'q1',
          question: 'which lens works with the Nikon D850?',
          anchors: ['p:d850'],
          paths: [],
          restriction: 'telephoto',
          source: 'none',
        },
      ],
      { graph, answers: new Map([['q1', ['p:nikkor']]]), restriction: 'annotation' },
    );
    expect(judged!.restriction).toBe('telephoto');
    expect(
      questionRestriction('Which lens, made by Nikon, works with the Nikon D850?', ['Nikon D850', 'nikon']),
    ).toBe('Which lens, made by, works with the');
  });

  it('reads a described anchor as a model that knows it would: its description is no requirement', async () => {
    const graph = new InMemoryGraphStore(skb);
    const queries: SkbQuery[] = [
      {
        id: 'q1',
        query: 'Which telephoto lens works with the camera maker’s high-resolution body?',
        split: 'test',
        answers: ['p:nikkor'],
        meta: {
          anchors: ['p:d850'],
          anchor_descriptions: { 'p:d850': 'the camera maker’s high-resolution body' },
          paths: [{ anchor: 'p:d850', hops: [{ edgeType: 'compatible_with', direction: 'in' }] }],
        },
      },
    ];
    const annotations = goldAnnotations(queries, { schema: skb.schema });
    expect(annotations[0]!.anchorDescriptions).toEqual(['the camera maker’s high-resolution body']);
    const [plan] = await resolveGoldPlans(annotations, { graph, answers: new Map([['q1', ['p:nikkor']]]) });
    // Named by its name (the question does not write it), the rest of the question is the requirement.
    expect(plan!.anchors[0]!.mention).toBe('Nikon D850');
    expect(plan!.restriction).toBe('Which telephoto lens works with');
  });

  it("keeps of a question that paraphrases its anchor only the words the judge's requirement shares", async () => {
    const graph = new InMemoryGraphStore(skb);
    const queries: SkbQuery[] = [
      {
        id: 'q1',
        query: 'Which long lenses fit the newest body of the firm that also builds microscopes?',
        split: 'test',
        answers: ['p:nikkor'],
        meta: {
          anchors: ['p:d850'],
          anchor_descriptions: { 'p:d850': 'the high-resolution Nikon camera' },
          paths: [{ anchor: 'p:d850', hops: [{ edgeType: 'compatible_with', direction: 'in' }] }],
          textual_requirement: 'a telephoto lens (long focal length)',
        },
      },
    ];
    const [plan] = await resolveGoldPlans(goldAnnotations(queries, { schema: skb.schema }), {
      graph,
      answers: new Map([['q1', ['p:nikkor']]]),
    });
    // Left in, "newest body … microscopes" would rank the answers by how well they describe the
    // camera; the judge's own words ("telephoto", "focal") are not the question's, so they stay out.
    expect(plan!.restriction).toBe('long lenses');
  });
});

describe('requirementWords', () => {
  it("takes the question's words that share a stem with the requirement, acronyms and capitals too", () => {
    expect(
      requirementWords(
        'Which DJ or audio editing applications use the sound stretching library?',
        'a DJ or audio editing application',
      ),
    ).toBe('DJ audio editing applications');
    expect(requirementWords('small C compilers, neither GCC nor Clang', 'a non-GCC C compiler')).toBe(
      'C compilers GCC',
    );
    expect(requirementWords('Which video players play it?', 'part of busybox')).toBeUndefined();
  });
});

describe('mentionIn', () => {
  it('takes the first name that occurs in the question as whole words, as the question writes it', () => {
    const question = 'Which Chinese tree of the pine family has flat needles?';
    expect(mentionIn(question, [undefined, 'Pine Family', 'Pinaceae'])).toBe('pine family');
    expect(mentionIn(question, ['Pinaceae', 'tree'])).toBe('tree');
    // Part of a word is no mention.
    expect(mentionIn(question, ['pin', 'needle'])).toBeUndefined();
    expect(mentionIn('a (C++) question', ['C++'])).toBe('C++');
  });
});
