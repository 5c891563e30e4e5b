import { narrowingTypes, searchText } from '@weft/kit';
import type { Anchor, EdgeDirection, RetrievalContext } from '@weft/spec';
import { RelationWords } from './relation-words.ts';

/**
 * One reading of a question as a query graph: this node (one sense of a mention, not its name),
 * one typed hop the graph holds from it, the nodes that hop reaches, and how well the best of them
 * matches the question's text.
 */
export interface QueryGraph {
  /** Index into the anchors the search was given. */
  readonly anchor: number;
  /** The node the path starts from: the sense of the mention this reading chose. */
  readonly node: string;
  readonly edgeType: string;
  /** Seen from `node`. */
  readonly direction: EdgeDirection;
  /** The answer type: the most frequent type among the endpoints. */
  readonly answerType: string;
  /** How many nodes the hop reaches (of the schema's target types). */
  readonly reach: number;
  /** The text the answer must match: the question without the mentions and the relation words. */
  readonly constraint: string;
  /** The endpoints, best match of the constraint first (at most `endpointsKept`). */
  readonly endpoints: readonly { readonly id: string; readonly text: number }[];
  /** The evidence, each in [0, 1]: link (mention × sense), text fit, relation words. */
  readonly evidence: { readonly link: number; readonly fit: number; readonly relationWords: number };
  /** Relative score among the readings (the best is 1). */
  readonly score: number;
  /** Probability that the question means this reading, the no-structure reading included. */
  readonly confidence: number;
}

export interface QueryGraphReading {
  /** Best first; at most `keep`. */
  readonly graphs: readonly QueryGraph[];
  /** Probability that the question asks for text only (no reading fits better than text alone). */
  readonly textOnly: number;
}

export interface QueryGraphOptions {
  /** Senses (candidate nodes) tried per mention (default 8). */
  readonly sensesPerMention?: number;
  /** Mentions below this confidence start no reading (default 0.1). */
  readonly minAnchorConfidence?: number;
  /** Neighbours read per node (default 2000). */
  readonly limitPerNode?: number;
  /** Readings kept (default 5). */
  readonly keep?: number;
  /** Matching endpoints kept per reading (default 100). */
  readonly endpointsKept?: number;
}

interface Group {
  readonly anchor: number;
  readonly node: string;
  readonly link: number;
  readonly edgeType: string;
  readonly direction: EdgeDirection;
  readonly endpoints: string[];
  readonly types: Map<string, number>;
}

/**
 * Searches the question's query graphs — in the manner of staged query-graph generation: every
 * (anchor node, one-hop relation the graph holds from it, answer type) is a candidate, scored jointly
 * with evidence from the graph and the text. A sense of a mention with no edge of a relation has no
 * reading along it; a reading whose endpoints do not match the question's words as well as the best
 * text match anywhere scores low; relation words the question spells raise their readings. The
 * no-structure reading competes with them: a question whose best text match is reached by no
 * reading asks for text.
 *
 * Cost per question: one neighbour read of the senses, one batched search for each constraint's best
 * match over the target types, and one search per distinct constraint restricted to its anchors'
 * endpoints.
 */
export async function searchQueryGraphs(
  query: string,
  anchors: readonly Anchor[],
  context: RetrievalContext,
  options: QueryGraphOptions = {},
): Promise<QueryGraphReading> {
  const none: QueryGraphReading = { graphs: [], textOnly: 1 };
  const senses = options.sensesPerMention ?? 8;
  const minConfidence = options.minAnchorConfidence ?? 0.1;
  const vocabulary = relationWords(context);
  const seeds = new Map<string, { anchor: number; link: number }[]>();
  anchors.forEach((anchor, index) => {
    if (anchor.confidence < minConfidence) return;
    // A mention that is a relation word ("kinds", "parts", "opposite") says which relation, not where from.
    const anchorness = 1 - 0.8 * vocabulary.share(anchor.mention);
    if (anchorness <= 0) return;
    for (const node of anchor.candidates.slice(0, senses)) {
      const list = seeds.get(node.id) ?? seeds.set(node.id, []).get(node.id)!;
      list.push({ anchor: index, link: anchorness * Math.sqrt(anchor.confidence) * node.score });
    }
  });
  if (seeds.size === 0 || query.trim() === '') return none;
  const signal = context.abortSignal ? { abortSignal: context.abortSignal } : {};
  const targets = narrowingTypes(context.schema.targetTypes, context.schema);
  const targetSet = targets ? new Set(targets) : undefined;
  const neighbours = await context.graph.doNeighbors({
    seeds: [...seeds.keys()],
    direction: 'both',
    limitPerSeed: options.limitPerNode ?? 2000,
    ...signal,
  });
  // How many edges each sense has: of a mention's senses, the one a reader means is most often the
  // one the KB says most about (the knee of the leg has 7 edges, the knee of a trouser leg 2).
  const degree = new Map<string, number>();
  for (const n of neighbours) if (n.node !== n.seed) degree.set(n.seed, (degree.get(n.seed) ?? 0) + 1);
  const commonness = senseCommonness(seeds, degree);
  const groups = new Map<string, Group>();
  for (const n of neighbours) {
    if (n.node === n.seed || (targetSet && !targetSet.has(n.nodeType))) continue;
    // A node two mentions link (two spellings of one name) reads as one reading, at its better link.
    const owners = seeds.get(n.seed) ?? [];
    const { anchor, link } = owners
      .map((owner) => ({ anchor: owner.anchor, link: owner.link * commonness(owner.anchor, n.seed) }))
      .reduce((a, b) => (b.link > a.link ? b : a));
    const key = `${n.seed}\u0000${n.edgeType}\u0000${n.direction}`;
    let group = groups.get(key);
    if (!group) {
      group = {
        anchor,
        node: n.seed,
        link,
        edgeType: n.edgeType,
        direction: n.direction,
        endpoints: [],
        types: new Map(),
      };
      groups.set(key, group);
    }
    group.endpoints.push(n.node);
    group.types.set(n.nodeType, (group.types.get(n.nodeType) ?? 0) + 1);
  }
  if (groups.size === 0) return none;
  // A node the question names (a mention's first node) is not what it asks for ("which part of the eye is over
  // the iris" does not ask for the iris): it is no endpoint.
  const named = new Set(
    anchors.flatMap((anchor) => {
      const first = anchor.candidates[0];
      return first && first.named !== false ? [first.id] : [];
    }),
  );
  for (const group of groups.values()) {
    const kept = group.endpoints.filter((id) => !named.has(id));
    group.endpoints.length = 0;
    group.endpoints.push(...kept);
  }
  // The text an answer must match: the question without the reading's mention, the specific
  // mentions (names, as the planner's restriction cuts them) and the relation words. Per anchor, its
  // endpoints are scored on that remainder relative to the remainder's best match anywhere. A
  // question that is only an anchor and a relation ("the opposite of hot") leaves nothing to match,
  // and its readings stand on the link and the relation words alone.
  const specific = anchors.filter((a) => a.confidence >= 0.5).map((a) => a.mention);
  const byAnchor = new Map<number, Set<string>>();
  for (const group of groups.values()) {
    const set = byAnchor.get(group.anchor) ?? byAnchor.set(group.anchor, new Set()).get(group.anchor)!;
    for (const id of group.endpoints) set.add(id);
  }
  const constraints = new Map(
    [...byAnchor.keys()].map((anchor) => [
      anchor,
      vocabulary.remainder(query, [anchors[anchor]!.mention, ...specific]),
    ]),
  );
  // Each distinct constraint's best match anywhere (one batched search), beside the searches
  // restricted to each anchor's endpoints: neither waits for the other.
  const distinct = [...new Set(constraints.values())].filter((rest) => rest !== '');
  const bestSearch = distinct.length
    ? searchText(context.text, distinct, {
        limit: 1,
        ...(targets ? { filter: { nodeTypes: targets } } : {}),
        ...signal,
      })
    : Promise.resolve([]);
  bestSearch.catch(() => {});
  // The anchors whose constraints are the same text (every specific mention's: the question without
  // the specific mentions) share one search restricted to all their endpoints: a node's BM25 score
  // does not depend on which other nodes the filter lets through.
  const endpointsOf = new Map<string, Set<string>>();
  for (const [anchor, ids] of byAnchor) {
    const rest = constraints.get(anchor)!;
    if (rest === '') continue;
    const union = endpointsOf.get(rest) ?? endpointsOf.set(rest, new Set()).get(rest)!;
    for (const id of ids) union.add(id);
  }
  const byConstraint = new Map<string, Map<string, number>>();
  await Promise.all(
    [...endpointsOf].map(async ([rest, ids]) => {
      const [[hits = []], bestLists] = await Promise.all([
        searchText(context.text, [rest], {
          limit: ids.size,
          filter: { ids: [...ids] },
          ...signal,
        }),
        bestSearch,
      ]);
      const top = bestLists[distinct.indexOf(rest)]?.[0]?.score ?? 0;
      byConstraint.set(rest, new Map(top > 0 ? hits.map((hit) => [hit.id, hit.score / top]) : []));
    }),
  );
  // Each anchor reads its own endpoints' scores in its constraint's map.
  const text = new Map<number, Map<string, number> | undefined>();
  for (const anchor of byAnchor.keys()) text.set(anchor, byConstraint.get(constraints.get(anchor)!));
  const relationScores = vocabulary.scores(query);
  const kept = options.endpointsKept ?? 100;
  const scored = [...groups.values()].map((group) => {
    const scores = text.get(group.anchor);
    const endpoints = group.endpoints
      .map((id) => ({ id, text: scores ? (scores.get(id) ?? 0) : 1 }))
      .sort((a, b) => b.text - a.text || a.id.localeCompare(b.id));
    const fit = Math.min(1, endpoints[0]?.text ?? 0);
    // Relation words read the other way round ("what is a knee part of?" read as the knee's parts)
    // do not count for this reading.
    const order = vocabulary.direction(query, anchors[group.anchor]!.mention, group.edgeType);
    const words = order && order !== group.direction ? 0 : (relationScores.get(group.edgeType) ?? 0);
    const answerType = [...group.types].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]![0];
    return {
      group,
      endpoints: endpoints.slice(0, kept),
      answerType,
      fit,
      words,
      raw: readingScore(group.link, fit, words, group.endpoints.length),
    };
  });
  scored.sort(
    (a, b) =>
      b.raw - a.raw ||
      a.group.node.localeCompare(b.group.node) ||
      a.group.edgeType.localeCompare(b.group.edgeType) ||
      a.group.direction.localeCompare(b.group.direction),
  );
  const bestRaw = scored[0]?.raw ?? 0;
  if (bestRaw <= 0) return none;
  // The no-structure reading: the text alone, as strong as the best reading could be without a
  // sure link and relation words.
  const textOnlyRaw = 0.25;
  const keep = scored.slice(0, options.keep ?? 5);
  const total = textOnlyRaw + keep.reduce((sum, s) => sum + s.raw, 0);
  return {
    graphs: keep.map((s) => ({
      anchor: s.group.anchor,
      node: s.group.node,
      edgeType: s.group.edgeType,
      direction: s.group.direction,
      answerType: s.answerType,
      reach: s.group.endpoints.length,
      constraint: constraints.get(s.group.anchor) ?? '',
      endpoints: s.endpoints,
      evidence: { link: s.group.link, fit: s.fit, relationWords: s.words },
      score: s.raw / bestRaw,
      confidence: s.raw / total,
    })),
    textOnly: textOnlyRaw / total,
  };
}

/**
 * A sense's commonness among its mention's senses, in (0, 1]: (1 + ln(1 + edges)) relative to the
 * mention's best-connected sense — the popularity prior of entity linking, read from the graph.
 * Chosen on everyday WordNet val (gold reading's answers first 19 → 22 of 30 with power 0.5, 1 or 2).
 */
function senseCommonness(
  seeds: ReadonlyMap<string, readonly { anchor: number }[]>,
  degree: ReadonlyMap<string, number>,
): (anchor: number, node: string) => number {
  const weight = (node: string) => 1 + Math.log1p(degree.get(node) ?? 0);
  const best = new Map<number, number>();
  for (const [node, owners] of seeds) {
    for (const { anchor } of owners) best.set(anchor, Math.max(best.get(anchor) ?? 0, weight(node)));
  }
  return (anchor, node) => weight(node) / (best.get(anchor) ?? weight(node));
}

/** One vocabulary per schema: the schema of a store does not change while it is open. */
const vocabularies = new WeakMap<object, RelationWords>();
function relationWords(context: RetrievalContext): RelationWords {
  let vocabulary = vocabularies.get(context.schema);
  if (!vocabulary) {
    vocabulary = new RelationWords(context.schema);
    vocabularies.set(context.schema, vocabulary);
  }
  return vocabulary;
}

/**
 * A reading's unnormalised score: link × text fit² × relation words × reach. The fit is floored at
 * 0.2 (a remainder no endpoint spells still leaves the reading standing on its link and words); the
 * relation words count twice; reach enters as √(1 + ln(1 + n)): with nothing else to tell two senses
 * apart, the one with more edges of the relation is the everyday one (the eye with 23 parts, not
 * the eye of a needle with 1). Chosen on the val splits of the everyday WordNet set and the hybrid
 * sets of WordNet, Pokémon and Debian (gold reading first: 63.3 / 44.2 / 63.2 / 100 %; without the
 * reach term 23.3 / 42.3 / 63.2 / 100; with its first power 56.7 / 44.2 / 63.2 / 90).
 */
function readingScore(link: number, fit: number, words: number, reach: number): number {
  return link * (0.2 + 0.8 * fit) ** 2 * (1 + 2 * words) * Math.sqrt(1 + Math.log1p(reach));
}
