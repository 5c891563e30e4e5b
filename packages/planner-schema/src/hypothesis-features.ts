import type { SkbSchema } from '@weft/spec';
import type { Linking, LinkedNode } from './hypotheses.ts';
import { type MetapathKey, oneHopMetapaths, parseMetapath } from './metapath.ts';
import { predictCues } from './cue-model.ts';
import { queryWords, stopwords, tokens as toTokens } from './query-text.ts';
import type { SchemaPlannerModel } from './schema-planner-model.ts';

/** Features of an (anchor node, metapath) hypothesis, in the order the linear model expects. */
export const hypothesisFeatures = [
  'relation',
  'relationTop',
  'match',
  'context',
  'contextTop',
  'spanWords',
  'quoted',
  'capitalised',
  'queryLanguage',
  'ambiguity',
  'firstHopSize',
  'hops',
  'shadowed',
  'literal',
  'typeCue',
  'whHead',
  'leadingClause',
] as const;

export interface Hypothesis {
  readonly node: LinkedNode;
  /** The span as written in the query. */
  readonly mention: string;
  readonly metapath: MetapathKey;
  readonly x: number[];
}

/** Words of the schema's edge types (name parts and description), for cue matching without a model. */
function edgeCueWords(schema: SkbSchema): Map<string, Set<string>> {
  const cues = new Map<string, Set<string>>();
  for (const edge of schema.edgeTypes) {
    const words = cues.get(edge.name) ?? cues.set(edge.name, new Set()).get(edge.name)!;
    for (const t of toTokens(`${edge.name.replace(/[_\-.]/g, ' ')} ${edge.description ?? ''}`))
      if (!stopwords.has(t)) words.add(t);
  }
  return cues;
}

/** P(metapath | query): the fitted classifier, or schema cue words when there is no model. */
export function relationScores(
  query: string,
  schema: SkbSchema,
  model: SchemaPlannerModel | undefined,
): Map<MetapathKey, number> {
  const queryTokens = toTokens(query);
  if (model && model.relation.labels.length > 0) return predictCues(model.relation, queryTokens);
  const cues = edgeCueWords(schema);
  const keys = oneHopMetapaths(schema);
  const present = new Set(queryTokens.flatMap((t) => [t, t.replace(/s$/, '')]));
  const raw = keys.map((key) => {
    const edge = parseMetapath(key)[0]!.edgeType;
    let overlap = 0;
    for (const word of cues.get(edge) ?? []) if (present.has(word)) overlap++;
    return Math.exp(overlap);
  });
  const total = raw.reduce((s, r) => s + r, 0);
  return new Map(keys.map((k, i) => [k, raw[i]! / total]));
}

/** Builds every hypothesis whose first hop exists at the linked node. */
export function buildHypotheses(
  linking: Linking,
  relation: ReadonlyMap<MetapathKey, number>,
  metapaths: readonly MetapathKey[],
  model: SchemaPlannerModel | undefined,
  query = '',
): Hypothesis[] {
  const top = Math.max(0, ...relation.values());
  const present = new Set(toTokens(query));
  const literal = new Map(metapaths.map((key) => [key, literalCue(key, present)]));
  const maxLiteral = Math.max(0, ...literal.values());
  const typeCue = new Map<string, number>();
  const cues = positionCues(query);
  const out: Hypothesis[] = [];
  for (const node of linking.nodes) {
    const span = linking.spans[node.span]!;
    const hops = linking.firstHops.get(node.id);
    if (!hops) continue;
    const language = model
      ? span.tokens.reduce(
          (s, t) => s + (model.queryDocumentFrequency[t] ?? 0) / Math.max(1, model.queryCount),
          0,
        ) / Math.max(1, span.tokens.length)
      : 0;
    for (const key of metapaths) {
      const first = key.split('/')[0]!;
      const reached = hops.get(first);
      if (!reached || reached.length === 0) continue;
      const p = relation.get(key) ?? 0;
      out.push({
        node,
        mention: span.text,
        metapath: key,
        x: [
          Math.log(p + 1e-4),
          top > 0 ? p / top : 0,
          node.match,
          node.context,
          node.contextRank === 0 ? 1 : 0,
          span.words,
          span.quoted ? 1 : 0,
          span.capitalised ? 1 : 0,
          language,
          Math.log(node.ambiguity),
          Math.log(1 + reached.length),
          key.split('/').length,
          linking.shadowed.has(node.span) ? 1 : 0,
          maxLiteral > 0 ? (literal.get(key) ?? 0) / maxLiteral : 0,
          typeCueOf(node.type, present, typeCue),
          cues.whHeadStart === span.start ? 1 : 0,
          span.end <= cues.leadingClauseEnd ? 1 : 0,
        ],
      });
    }
  }
  return out;
}

/** Words between a question word and the noun it asks about ("which *kind of* dog"). */
const whFiller = new Set([
  'kind',
  'kinds',
  'type',
  'types',
  'sort',
  'sorts',
  'form',
  'forms',
  'of',
  'the',
  'a',
  'an',
]);
const leadingPrepositions = new Set(['in', 'during', 'within', 'among', 'on', 'for', 'at', 'from', 'under']);

/**
 * Where a query's subject usually sits: right after its question word ("Which *Tudor* monarch",
 * "which type of *headache*"), or in a leading clause ("In *chemistry*, which ..."). The hypothesis
 * model learns how much these positions count; for queries without them the features are 0.
 */
function positionCues(query: string): { whHeadStart: number; leadingClauseEnd: number } {
  const words = queryWords(query);
  let whHeadStart = -1;
  const wh = words.findIndex((w) => w.lower === 'which' || w.lower === 'what');
  if (wh >= 0 && wh < 4) {
    let j = wh + 1;
    while (j < words.length && whFiller.has(words[j]!.lower)) j++;
    if (j < words.length) whHeadStart = words[j]!.start;
  }
  const comma = query.indexOf(',');
  const leadingClauseEnd = words[0] && leadingPrepositions.has(words[0].lower) && comma > 0 ? comma : -1;
  return { whHeadStart, leadingClauseEnd };
}

/**
 * How literally the query names the metapath's edge types: matched name words, with unmatched ones
 * counting against (so "instance hypernym" prefers `instance_hypernym` over `hypernym`).
 */
function literalCue(key: MetapathKey, present: ReadonlySet<string>): number {
  const hops = parseMetapath(key);
  let total = 0;
  for (const hop of hops) {
    const words = toTokens(hop.edgeType.replace(/[_\-.]/g, ' ')).filter((w) => !stopwords.has(w));
    const matched = words.filter((w) => present.has(w)).length;
    total += matched / (1 + 0.5 * (words.length - matched));
  }
  return total / Math.max(1, hops.length);
}

/** Share of the node type's name words (e.g. `verb`, `cognition`) that the query uses. */
function typeCueOf(type: string, present: ReadonlySet<string>, cache: Map<string, number>): number {
  const cached = cache.get(type);
  if (cached !== undefined) return cached;
  const words = toTokens(type.replace(/[_\-.]/g, ' ')).filter((w) => !stopwords.has(w));
  const cue = words.length ? words.filter((w) => present.has(w)).length / words.length : 0;
  cache.set(type, cue);
  return cue;
}

/** Hand-set weights used before `weft train` has fitted the hypothesis model. */
export const defaultHypothesisWeights: Readonly<Record<(typeof hypothesisFeatures)[number], number>> = {
  relation: 0.6,
  relationTop: 2,
  match: 1,
  context: 1.5,
  contextTop: 0.5,
  spanWords: 0.6,
  quoted: 2,
  capitalised: 0.5,
  queryLanguage: -3,
  ambiguity: -0.3,
  firstHopSize: -0.2,
  hops: -0.8,
  shadowed: -1.5,
  literal: 3,
  typeCue: 1,
  whHead: 1,
  leadingClause: 1,
};
