import type { Candidate, Plan } from '@weft/spec';
import { queryShare } from '@weft/kit';

/**
 * What the linear reranker looks at, per candidate. Scores are divided by the query's best, so one
 * weight fits queries with long and short matches alike; `…Gated` features are scaled by how
 * specifically the query names something that the graph confirms (`confirmedGate`): relation-aware
 * text counts for queries that name an entity, the node's own text for those that do not.
 */
export const linearFeatures = [
  'document',
  'relations',
  'documentGated',
  'relationsGated',
  'dense',
  'documentRank',
  'relationsRank',
  'denseRank',
  'anchorLink',
  'anchorSelf',
  'targetType',
  'relationMatch',
  'anchorDocument',
  'relationDocument',
  'selfDocument',
  'relationSure',
  'neighbourText',
  'neighbourDocument',
  'nameLookup',
  'namedNotAsked',
  // Last, so models fitted before it keep their weights' positions.
  'queryGraph',
] as const;

export type LinearFeature = (typeof linearFeatures)[number];

/** The scores (`KnownScores`) the features are made from. */
export const linearScoreKeys = ['bm25', 'bm25Relations', 'anchorLink', 'anchorSelf'] as const;

/** How specifically the query names something: its most confident anchor, in [0, 1]. */
export function mentionGate(plan: Plan): number {
  return Math.max(0, ...plan.anchors.map((anchor) => anchor.confidence));
}

function normalised(candidates: readonly Candidate[], key: string): number[] {
  const values = candidates.map((c) => c.scores[key] ?? 0);
  const max = Math.max(0, ...values);
  return values.map((v) => (max > 0 ? v / max : 0));
}

/** 1 / (1 + rank) by `key`, best = 1; 0 for candidates without the score. */
function reciprocalRanks(candidates: readonly Candidate[], key: string): number[] {
  const order = candidates
    .map((c, i) => ({ i, v: c.scores[key] }))
    .filter((e) => e.v !== undefined && e.v > 0)
    .sort((a, b) => b.v! - a.v! || a.i - b.i);
  const out = new Array<number>(candidates.length).fill(0);
  order.forEach((e, rank) => {
    out[e.i] = 1 / (1 + rank);
  });
  return out;
}

/**
 * What the mentions say of the nodes they link: `lookup`, how surely the query is that node (link
 * score × the share of the query the mention spells, over every node the mention spells the name of
 * or describes: a query that is a name asks for a node of that name, one that is mostly a
 * description of a node asks for that node, not its neighbours); `notAsked`, how surely the node is
 * named by a question that says more than the name (the mention's best named node only: its
 * namesakes are other readings of the word, and may be what the question asks for).
 */
function linkedNodes(plan: Plan): { lookup: Map<string, number>; notAsked: Map<string, number> } {
  const shareOf = queryShare(plan);
  const lookup = new Map<string, number>();
  const notAsked = new Map<string, number>();
  const raise = (map: Map<string, number>, id: string, value: number) => {
    if (value > (map.get(id) ?? 0)) map.set(id, value);
  };
  // A mention inside one that spells a name is read as that name, not as a description.
  const names = plan.anchors
    .filter((anchor) => anchor.candidates.some((node) => node.named !== false))
    .map((anchor) => anchor.mention.toLowerCase());
  for (const anchor of plan.anchors) {
    const share = shareOf(anchor.mention);
    const mention = anchor.mention.toLowerCase();
    const name = names.some((named) => named.includes(mention));
    anchor.candidates.forEach((node, rank) => {
      const link = anchor.confidence * node.score;
      if (name === (node.named !== false)) raise(lookup, node.id, link * share);
      if (rank === 0 && node.named !== false) raise(notAsked, node.id, link * (1 - share));
    });
  }
  return { lookup, notAsked };
}

/**
 * How much the query is a name and nothing more, in [0, 1]: the share of it that a mention spells,
 * × the link score of the node it names — however sure it is that the mention is an entity at all.
 */
export function nameQuery(plan: Plan): number {
  const shareOf = queryShare(plan);
  let best = 0;
  for (const anchor of plan.anchors) {
    const top = anchor.candidates[0];
    if (top && top.named !== false) best = Math.max(best, top.score * shareOf(anchor.mention));
  }
  return best;
}

/**
 * `mentionGate`, as far as the graph confirms the surest mention: × the square root of the best
 * text match (relative to the query's best) among the candidates next to a mention as sure as it —
 * or of the planned relation's probability, for a candidate over it. A question whose common word
 * happens to be a node's name ("… in real time" → the package `time`) has no neighbour of that node
 * among its text matches, so it is ranked by its text, as bm25 ranks it; a question about a node's
 * neighbours names the node and describes them, or names the relation. Against the plain gate,
 * untrained stores, Hit@1: Debian text-only train 7 → 9 of 20 (bm25 9), Pokémon text-only train
 * 9 → 10 of 30, synthesised text-only Debian 142 → 144 of 189 (bm25 143), WordNet hybrid train
 * 93 → 94 of 158 and val 30 → 31 of 52, Debian described val 7 → 8 of 23; lost Debian described
 * train 13 → 12 of 47 and wn18rr val 158 → 157 of 300. At the first power instead of the square
 * root: synthesised Debian 144 → 142, WordNet hybrid val 31 → 29 (train 94 → 95); without the
 * planned relation: wn18rr 157 → 154, Debian hybrid val R@20 100 → 90.
 */
function confirmedGate(candidates: readonly Candidate[], plan: Plan, document: readonly number[]): number {
  const gate = mentionGate(plan);
  if (gate === 0) return 0;
  let confirmed = 0;
  candidates.forEach((c, i) => {
    const link = c.scores.anchorLink ?? 0;
    if (link === 0) return;
    const planned = (c.scores.relationMatch ?? 0) / link;
    confirmed = Math.max(confirmed, Math.min(1, link / gate) * Math.max(document[i]!, planned));
  });
  return gate * Math.sqrt(confirmed);
}

/** One row of `linearFeatures` per candidate. */
export function featureRows(candidates: readonly Candidate[], plan: Plan): number[][] {
  const linked = linkedNodes(plan);
  const document = normalised(candidates, 'bm25');
  const gate = confirmedGate(candidates, plan, document);
  const relations = normalised(candidates, 'bm25Relations');
  const dense = normalised(candidates, 'dense');
  const ranks = {
    document: reciprocalRanks(candidates, 'bm25'),
    relations: reciprocalRanks(candidates, 'bm25Relations'),
    dense: reciprocalRanks(candidates, 'dense'),
  };
  return candidates.map((c, i) => {
    const s = c.scores;
    const anchorLink = s.anchorLink ?? 0;
    const relationMatch = s.relationMatch ?? 0;
    const row: Record<LinearFeature, number> = {
      document: document[i]!,
      relations: relations[i]!,
      documentGated: (1 - gate) * document[i]!,
      relationsGated: gate * relations[i]!,
      dense: dense[i]!,
      documentRank: ranks.document[i]!,
      relationsRank: ranks.relations[i]!,
      denseRank: ranks.dense[i]!,
      anchorLink,
      anchorSelf: s.anchorSelf ?? 0,
      targetType: s.targetType ?? 0,
      relationMatch,
      // Next to a named node and matching the rest of the query: the shape of a hybrid answer.
      anchorDocument: anchorLink * document[i]!,
      relationDocument: relationMatch * document[i]!,
      // A node the question names matches the question's words by its own name and gloss: that
      // match says nothing about it being the answer.
      selfDocument: (s.anchorSelf ?? 0) * Math.max(document[i]!, relations[i]!),
      // Next to a named node over a relation the plan is sure of: the answers of such a question
      // are that node's neighbours (HybGRAG's ego-graph), whatever their words.
      relationSure: relationMatch >= 0.8 ? 1 : 0,
      // Next to a node the question describes, and matching the rest of it.
      neighbourText: s.neighbourText ?? 0,
      neighbourDocument: (s.neighbourText ?? 0) * document[i]!,
      nameLookup: linked.lookup.get(c.id) ?? 0,
      namedNotAsked: linked.notAsked.get(c.id) ?? 0,
      // An endpoint of a query-graph reading that matches the question: the plan's answer set.
      queryGraph: s.queryGraph ?? 0,
    };
    return linearFeatures.map((f) => row[f]);
  });
}
