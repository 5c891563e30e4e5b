import type { GraphNeighbor, IndexHit, Plan, RetrievalContext, SkbNode, TermStatistics } from '@weft/spec';
import { expanded, namesakes, opposite } from './anchor-adjacency.ts';
import type { Pool } from './candidate-pool.ts';
import type { FieldTraverserOptions } from './options.ts';

/** What `candidateNeighbours` reads for a set of candidates: whose neighbours, of which types. */
function neighbourReading(
  plan: Plan,
  described: readonly IndexHit[] | undefined,
  ids: readonly string[],
  adjacent: (id: string) => boolean,
  options: FieldTraverserOptions,
) {
  const named = expanded(plan, options);
  const top = described?.[0]?.score ?? 0;
  const share = new Map(top > 0 ? described!.map((hit) => [hit.id, hit.score / top]) : []);
  const needAdjacency = new Set(named.size > 0 ? ids.filter((id) => !adjacent(id)) : []);
  const seeds = share.size > 0 ? ids : [...needAdjacency];
  // Without described matches only the named nodes' types matter; a cap keeps a hub candidate cheap.
  const nodeTypes =
    share.size === 0
      ? [...new Set([...named.values()].flatMap((list) => list.map((o) => o.type)))]
      : undefined;
  return { named, share, needAdjacency, seeds, nodeTypes };
}

function readNeighbourLists(
  seeds: readonly string[],
  nodeTypes: readonly string[] | undefined,
  context: RetrievalContext,
): Promise<GraphNeighbor[]> {
  return context.graph.doNeighbors({
    seeds,
    direction: 'both',
    ...(nodeTypes ? { nodeTypes } : {}),
    limitPerSeed: 2000,
    ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
  });
}

/** The nodes `neighbourText` reads: the candidates next to a described match, and those matches. */
function describedIds(
  neighbours: readonly GraphNeighbor[],
  share: ReadonlyMap<string, number>,
  textual: ReadonlySet<string>,
): Set<string> {
  const seeds = new Set<string>();
  const nodes = new Set<string>();
  for (const n of neighbours) {
    if (share.has(n.node) && n.node !== n.seed && textual.has(n.seed)) {
      seeds.add(n.seed);
      nodes.add(n.node);
    }
  }
  return new Set([...seeds, ...nodes]);
}

/**
 * The graph reads of `candidateNeighbours` (the candidates' neighbour lists, then the documents of
 * those next to a described match and of the matches), started before the candidates' order is
 * known: when every candidate is known early (`ids`, with which of them are `adjacent` to a
 * mentioned node and `textual`), they run beside the searches that order them.
 */
export interface NeighbourReads {
  readonly seeds: ReadonlySet<string>;
  /** Per seed, its neighbours in the order the graph lists them. */
  readonly bySeed: Promise<Map<string, GraphNeighbor[]>>;
  readonly documents: Promise<{ readonly ids: ReadonlySet<string>; readonly read?: NeighbourDocuments }>;
}

export function readNeighbours(
  query: string,
  plan: Plan,
  described: readonly IndexHit[] | undefined,
  {
    ids,
    adjacent,
    textual,
  }: {
    readonly ids: readonly string[];
    readonly adjacent: (id: string) => boolean;
    readonly textual: ReadonlySet<string>;
  },
  context: RetrievalContext,
  options: FieldTraverserOptions,
): NeighbourReads {
  const { share, seeds, nodeTypes } = neighbourReading(plan, described, ids, adjacent, options);
  const lists = seeds.length > 0 ? readNeighbourLists(seeds, nodeTypes, context) : Promise.resolve([]);
  const bySeed = lists.then((neighbours) => {
    const out = new Map<string, GraphNeighbor[]>();
    for (const n of neighbours) (out.get(n.seed) ?? out.set(n.seed, []).get(n.seed)!).push(n);
    return out;
  });
  const documents = lists.then(async (neighbours) => {
    const wanted = describedIds(neighbours, share, textual);
    if (wanted.size === 0) return { ids: wanted };
    const read = await neighbourDocuments(query, [...wanted], context);
    return { ids: wanted, ...(read ? { read } : {}) };
  });
  bySeed.catch(() => {});
  documents.catch(() => {});
  return { seeds: new Set(seeds), bySeed, documents };
}

const sameSet = (a: ReadonlySet<string>, b: Iterable<string>) => {
  let n = 0;
  for (const x of b) {
    if (!a.has(x)) return false;
    n++;
  }
  return n === a.size;
};

/**
 * What the candidates' own neighbour lists say (a hub's list, seen from its side, would be cut at
 * `neighborsPerNode`): adjacency to a mentioned node, and which of the question's matches over
 * every type (`described`) each candidate is next to, weighed by coherence, for `neighbourText`.
 * The graph reads run at once (or were started by `readNeighbours`: taken when they read what is
 * needed here); the coherence, which reads the pool's document scores, waits for `scored` (the
 * id-filtered searches that complete them, `completeScores`).
 */
export async function candidateNeighbours(
  query: string,
  plan: Plan,
  described: readonly IndexHit[] | undefined,
  { matched, textual }: { readonly matched: ReadonlySet<string>; readonly textual: ReadonlySet<string> },
  pool: Pool,
  context: RetrievalContext,
  options: FieldTraverserOptions,
  scored: Promise<void> = Promise.resolve(),
  reads?: NeighbourReads,
): Promise<void> {
  const { named, share, needAdjacency, seeds, nodeTypes } = neighbourReading(
    plan,
    described,
    pool.ids,
    (id) => pool.adjacency.has(id),
    options,
  );
  if (seeds.length === 0) return await scored;
  // Read early for the same seeds: the lists in the seeds' order, as one read of them gives them.
  const early = reads && sameSet(reads.seeds, seeds) ? await reads.bySeed : undefined;
  const neighbours = early
    ? seeds.flatMap((seed) => early.get(seed) ?? [])
    : await readNeighbourLists(seeds, nodeTypes, context);
  const nextTo = new Map<string, Map<string, number>>();
  for (const n of neighbours) {
    const s = share.get(n.node);
    if (s !== undefined && n.node !== n.seed && textual.has(n.seed)) {
      const list = nextTo.get(n.seed) ?? nextTo.set(n.seed, new Map()).get(n.seed)!;
      list.set(n.node, s);
    }
    if (!needAdjacency.has(n.seed)) continue;
    const namedBy = namesakes(named.get(n.seed));
    for (const owner of named.get(n.node) ?? []) {
      if (namedBy.has(owner.anchor)) continue;
      const list = pool.adjacency.get(n.seed) ?? pool.adjacency.set(n.seed, []).get(n.seed)!;
      list.push({
        anchor: owner.anchor,
        node: n.node,
        nodeType: owner.type,
        edgeType: n.edgeType,
        // Seen from the mentioned node, the edge runs the other way.
        direction: opposite(n.direction),
        weight: owner.weight,
      });
    }
  }
  // The described neighbours' documents are read while the document scores are completed.
  const wanted = describedIds(neighbours, share, textual);
  const documents =
    wanted.size === 0
      ? undefined
      : (reads?.documents ?? Promise.resolve(undefined)).then((read) =>
          read && sameSet(read.ids, wanted) ? read.read : neighbourDocuments(query, [...wanted], context),
        );
  documents?.catch(() => {});
  await scored;
  if (nextTo.size > 0) {
    // Coherence decides which described node the question builds on: the one its words match
    // that lies next to many of the question's good text matches — share × (1 + log(1 + the
    // summed document shares of its neighbours among the document ranking's nodes)); with no
    // such neighbour, the share.
    // Measured on val and train of three KBs against the share alone: Hit@1 +1 question on
    // Debian described val, hybrid val and train, Pokémon described train; no set lower.
    const maxDocument = Math.max(0, ...pool.document.values());
    const support = new Map<string, number>();
    for (const [id, list] of nextTo) {
      if (!matched.has(id)) continue;
      const own = maxDocument > 0 ? (pool.document.get(id) ?? 0) / maxDocument : 0;
      for (const node of list.keys()) support.set(node, (support.get(node) ?? 0) + own);
    }
    const coherence = (node: string) => share.get(node)! * (1 + Math.log1p(support.get(node) ?? 0));
    // The best over every described node: the top share is 1, and only supported nodes exceed it.
    const best = Math.max(1, ...[...support.keys()].map(coherence));
    for (const list of nextTo.values())
      for (const node of list.keys()) list.set(node, coherence(node) / best);
  }
  if (nextTo.size > 0) neighbourText(nextTo, await documents, pool, context, options);
}

/** The analysed question and the analysed documents of the candidates and their described neighbours. */
interface NeighbourDocuments {
  readonly ids: readonly string[];
  readonly nodes: readonly (SkbNode | undefined)[];
  readonly question: TermStatistics | undefined;
  readonly analysed: readonly TermStatistics[];
}

/** Reads and analyses the documents `neighbourText` compares; undefined without term statistics. */
async function neighbourDocuments(
  query: string,
  ids: readonly string[],
  context: RetrievalContext,
): Promise<NeighbourDocuments | undefined> {
  const text = context.text;
  const analyse = text.specificationVersion === 'v2' ? text.doTermStatistics : undefined;
  if (!analyse) return undefined;
  const nodes = await context.graph.doGetNodes(
    ids,
    context.abortSignal ? { abortSignal: context.abortSignal } : {},
  );
  // A node's document as the text index composes it: name, aliases, text.
  const documents = nodes.map((node) =>
    node ? [node.name, ...(node.aliases ?? []), node.text].filter((part) => part.length > 0).join(' ; ') : '',
  );
  const [question, ...analysed] = await analyse.call(text, { texts: [query, ...documents] });
  return { ids, nodes, question, analysed };
}

/**
 * `neighbourText`: the best described neighbour's coherence (relative to the question's most
 * coherent described node) × what it adds to the candidate's own match — the share of the
 * query's words (by inverse document frequency) that the neighbour's document holds and the
 * candidate's does not. A question that only describes its answer matches the answer's kin (its
 * library, its data package, its hyponyms) with the same words: they add nothing. One that
 * describes the node it builds on matches that node with other words. A described node no answer
 * can be (outside the target types) weighs `outsideTargetsWeight`.
 */
function neighbourText(
  described: ReadonlyMap<string, ReadonlyMap<string, number>>,
  read: NeighbourDocuments | undefined,
  pool: Pool,
  context: RetrievalContext,
  options: FieldTraverserOptions,
): void {
  if (!read) {
    for (const [id, list] of described) pool.neighbourText.set(id, Math.max(...list.values()));
    return;
  }
  const { ids, nodes, question, analysed } = read;
  if (!question || question.documents === 0) return;
  const n = question.documents;
  const idf = new Map(
    question.terms.map((t) => [
      t.term,
      Math.log(1 + (n - t.documentFrequency + 0.5) / (t.documentFrequency + 0.5)),
    ]),
  );
  const termsOf = new Map(
    ids.map((id, i) => [
      id,
      new Set((analysed[i]?.terms ?? []).map((t) => t.term).filter((t) => idf.has(t))),
    ]),
  );
  const targets = new Set(context.schema.targetTypes ?? []);
  const outside = new Set(
    targets.size > 0 ? nodes.filter((node) => node && !targets.has(node.type)).map((node) => node!.id) : [],
  );
  const outsideWeight = options.outsideTargetsWeight ?? 1.5;
  for (const [id, list] of described) {
    const own = termsOf.get(id) ?? new Set<string>();
    let best = 0;
    for (const [neighbour, share] of list) {
      let matched = 0;
      let novel = 0;
      for (const term of termsOf.get(neighbour) ?? []) {
        const weight = idf.get(term)!;
        matched += weight;
        if (!own.has(term)) novel += weight;
      }
      const weight = outside.has(neighbour) ? outsideWeight : 1;
      if (matched > 0) best = Math.max(best, (weight * share * novel) / matched);
    }
    if (best > 0) pool.neighbourText.set(id, best);
  }
}
