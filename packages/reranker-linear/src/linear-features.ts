import type { Candidate, Plan } from '@weft/spec';

/**
 * What the linear reranker looks at, per candidate. Scores are divided by the query's best, so one
 * weight fits queries with long and short matches alike; `…Gated` features are scaled by how
 * specifically the query names something (the most specific anchor's confidence): relation-aware
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

/** Letters and digits of a text: how much of a query a mention spells, whatever its words. */
const spelled = (text: string) => text.match(/[\p{L}\p{N}]/gu)?.length ?? 0;

/** The share, in [0, 1], of the plan's query that a mention spells. */
function queryShare(plan: Plan): (mention: string) => number {
  const whole = Math.max(1, spelled(plan.query));
  return (mention) => Math.min(1, spelled(mention) / whole);
}

/**
 * What the mentions that spell a node's name say of it: `lookup`, how surely the query is that name
 * (link score × the share of the query the mention spells, over every node of that name: a query
 * that is a name asks for a node of that name); `notAsked`, how surely the node is named by a
 * question that says more than the name (the mention's best node only: its namesakes are other
 * readings of the word, and may be what the question asks for).
 */
function namedNodes(plan: Plan): { lookup: Map<string, number>; notAsked: Map<string, number> } {
  const shareOf = queryShare(plan);
  const lookup = new Map<string, number>();
  const notAsked = new Map<string, number>();
  const raise = (map: Map<string, number>, id: string, value: number) => {
    if (value > (map.get(id) ?? 0)) map.set(id, value);
  };
  for (const anchor of plan.anchors) {
    const share = shareOf(anchor.mention);
    anchor.candidates.forEach((node, rank) => {
      if (node.named === false) return;
      const link = anchor.confidence * node.score;
      raise(lookup, node.id, link * share);
      if (rank === 0) raise(notAsked, node.id, link * (1 - share));
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

/** One row of `linearFeatures` per candidate. */
export function featureRows(candidates: readonly Candidate[], plan: Plan): number[][] {
  const gate = mentionGate(plan);
  const named = namedNodes(plan);
  const document = normalised(candidates, 'bm25');
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
      nameLookup: named.lookup.get(c.id) ?? 0,
      namedNotAsked: named.notAsked.get(c.id) ?? 0,
    };
    return linearFeatures.map((f) => row[f]);
  });
}
