import type { SynsetType } from './synset-id.ts';

/** The edge types of the bundle, one per WordNet relation (inverse pointers fold into these). */
export type WordnetEdgeType =
  | 'hypernym'
  | 'instance_hypernym'
  | 'member_meronym'
  | 'part_meronym'
  | 'substance_meronym'
  | 'domain_topic'
  | 'domain_region'
  | 'domain_usage'
  | 'antonym'
  | 'similar_to'
  | 'also_see'
  | 'verb_group'
  | 'derivationally_related'
  | 'attribute'
  | 'entailment'
  | 'cause'
  | 'participle_of'
  | 'pertainym'
  | 'derived_from_adjective';

/** What one WordNet pointer symbol means as an edge. */
export interface PointerRelation {
  readonly type: WordnetEdgeType;
  /**
   * The pointer states the inverse of the stored relation (hyponym `~` of hypernym `@`, holonym `#m` of
   * meronym `%m`, domain member `-c` of domain `;c`): the edge runs from the pointer's target to the
   * synset that holds it. WordNet states both halves, so storing one keeps the graph half the size.
   */
  readonly inverse: boolean;
  /** Stored once per pair of synsets, whichever of them states it. */
  readonly symmetric: boolean;
}

const relation = (type: WordnetEdgeType, inverse = false): PointerRelation => ({
  type,
  inverse,
  symmetric: false,
});
const symmetric = (type: WordnetEdgeType): PointerRelation => ({ type, inverse: false, symmetric: true });

// Pointer symbols of wninput(5WN), as the data files write them.
const relations: ReadonlyMap<string, PointerRelation> = new Map([
  ['@', relation('hypernym')],
  ['~', relation('hypernym', true)],
  ['@i', relation('instance_hypernym')],
  ['~i', relation('instance_hypernym', true)],
  ['%m', relation('member_meronym')],
  ['#m', relation('member_meronym', true)],
  ['%p', relation('part_meronym')],
  ['#p', relation('part_meronym', true)],
  ['%s', relation('substance_meronym')],
  ['#s', relation('substance_meronym', true)],
  [';c', relation('domain_topic')],
  ['-c', relation('domain_topic', true)],
  [';r', relation('domain_region')],
  ['-r', relation('domain_region', true)],
  [';u', relation('domain_usage')],
  ['-u', relation('domain_usage', true)],
  ['!', symmetric('antonym')],
  ['&', symmetric('similar_to')],
  ['^', symmetric('also_see')],
  ['$', symmetric('verb_group')],
  ['+', symmetric('derivationally_related')],
  ['=', symmetric('attribute')],
  ['*', relation('entailment')],
  ['>', relation('cause')],
  ['<', relation('participle_of')],
]);

const pertainym = relation('pertainym');
const derivedFromAdjective = relation('derived_from_adjective');

/**
 * The relation of pointer `symbol` held by a synset of type `holder`, or undefined for a symbol WordNet
 * does not define. `\` means "pertains to" on adjectives and "derived from adjective" elsewhere: on
 * adverbs, and on the one noun synset of WordNet 3.1 that carries it (mellowness → mellow).
 */
export function pointerRelation(symbol: string, holder: SynsetType): PointerRelation | undefined {
  if (symbol === '\\') return holder === 'a' || holder === 's' ? pertainym : derivedFromAdjective;
  return relations.get(symbol);
}
