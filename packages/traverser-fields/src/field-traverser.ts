import { narrowingTypes, searchText, searchVector, textFields } from '@weft/kit';
import type {
  Candidate,
  EdgeDirection,
  IndexHit,
  Plan,
  PrepareOptions,
  RetrievalContext,
  Trajectory,
  TraverserV1,
  TraverseOptions,
} from '@weft/spec';
import { untrainedScore } from './untrained-score.ts';

export interface FieldTraverserOptions {
  /** Shown in traces (default `'fields'`). */
  readonly name?: string;
  /** Nodes taken from each ranking (document, relation-aware document, dense); default: the limit. */
  readonly searchK?: number;
  /** Mentions below this specificity start no expansion (default 0.2). */
  readonly minSpecificity?: number;
  /**
   * Mentions below this share of the surest mention's specificity start no expansion (default 0.8):
   * a question that links many words (WordNet's link 7 a question, most of them common words) is
   * about its surest ones, and adjacency to a common word's namesake only adds noise.
   */
  readonly relativeSpecificity?: number;
  /** Nodes per mention expanded (default 5): a name shared by many nodes is not expanded for all. */
  readonly nodesPerMention?: number;
  /** Neighbours taken per expanded node (default 300): hubs are reached from the candidate side too. */
  readonly neighborsPerNode?: number;
  /** Neighbours of the mentions added as candidates, the best by document BM25 (default 100). */
  readonly structuralK?: number;
  /**
   * How many nodes the dense search returns (default 300, at least `searchK`). It also scores the
   * other candidates: one found beyond it gets the lowest score of the list, an upper bound of its
   * own. (An id-filtered dense search costs LanceDB an exact scan, ~60 ms on WordNet.)
   */
  readonly denseK?: number;
  /**
   * How many of the question's best matches over every node type, by own and relation-aware
   * document, count as nodes it may describe (default 50; 0 turns `neighbourText` off). Questions
   * describe the node they build on ("the library that implements SSH") more often than they name
   * it; its document matches, and its neighbours are the answers.
   */
  readonly describedK?: number;
  /**
   * Weight of a described node outside the schema's target types in `neighbourText`, relative to
   * one of a target type (default 1.5). No answer can be such a node, so the words that match it
   * are about the node the question builds on, never the answer's own description. Measured on the
   * val and train splits of Debian and Pokémon (WordNet has no such node): Hit@1 +1 question on
   * Debian described val and train, +3 on Debian hybrid train, no set lower (2: one lower).
   */
  readonly outsideTargetsWeight?: number;
}

/** The query-only searches, started by `doPrepare` while the planner runs. */
interface GlobalSearches {
  readonly document: Promise<IndexHit[]>;
  readonly combined: Promise<IndexHit[]> | undefined;
  readonly dense: Promise<IndexHit[]> | undefined;
  /** The question's best matches over every node type; undefined when `describedK` is 0. */
  readonly described: Promise<IndexHit[]> | undefined;
}

/** How a candidate touches a node the query names. */
interface Adjacency {
  /** Index into `plan.anchors`. */
  readonly anchor: number;
  /** The named node and its type. */
  readonly node: string;
  readonly nodeType: string;
  readonly edgeType: string;
  /** Followed from the anchor's node towards the candidate. */
  readonly direction: EdgeDirection;
  readonly weight: number;
}

/** An anchor that holds a node among its candidates. */
interface Owner {
  /** Index into `plan.anchors`. */
  readonly anchor: number;
  /** The anchor's confidence × the node's candidate score. */
  readonly weight: number;
  readonly type: string;
  /** False for a node the anchor only describes. */
  readonly named: boolean;
}

interface Pool {
  /** Candidate ids in the order they joined; `members` holds the same ids for look-ups. */
  readonly ids: string[];
  readonly members: Set<string>;
  readonly types: Map<string, string>;
  readonly document: Map<string, number>;
  readonly combined: Map<string, number>;
  readonly dense: Map<string, number>;
  readonly adjacency: Map<string, Adjacency[]>;
  /** `neighbourText` of the candidates next to a described match. */
  readonly neighbourText: Map<string, number>;
}

const add = (pool: Pool, hits: readonly IndexHit[], into: Map<string, number>, k: number) => {
  for (const hit of hits.slice(0, k)) {
    if (!into.has(hit.id)) into.set(hit.id, hit.score);
    if (!pool.types.has(hit.id) && hit.type !== undefined) pool.types.set(hit.id, hit.type);
    join(pool, hit.id);
  }
};

function join(pool: Pool, id: string): void {
  if (pool.members.has(id)) return;
  pool.members.add(id);
  pool.ids.push(id);
}

/**
 * The endpoints of the plan's executed query-graph readings (paths with `endpoints`): per anchor the
 * relative score of its best reading that reaches the node (the plan's best reading scores 1), summed
 * over the anchors — a node the readings of two anchors reach is their intersection. Relative, not the
 * readings' probabilities: those are spread over every reading and the text-only one, and an executed
 * reading is one the question's words confirmed (everyday WordNet val Hit@1 63.3 against 40.0 with the
 * probabilities at twice the weight). Summed over anchors rather than the best: the own plans' figures
 * are equal, the gold plans' (`--oracle plan`) Pokémon hybrid train / val 56.3 / 57.9 → 62.5 / 63.2.
 */
function readingEndpoints(plan: Plan): Map<string, number> {
  const best = new Map<string, Map<number, number>>();
  for (const path of plan.paths) {
    if (!path.endpoints) continue;
    for (const id of path.endpoints) {
      const byAnchor = best.get(id) ?? best.set(id, new Map()).get(id)!;
      const anchor = path.anchor ?? -1;
      byAnchor.set(anchor, Math.max(byAnchor.get(anchor) ?? 0, path.score));
    }
  }
  const out = new Map<string, number>();
  for (const [id, byAnchor] of best)
    out.set(
      id,
      [...byAnchor.values()].reduce((a, b) => a + b, 0),
    );
  return out;
}

const opposite = (direction: EdgeDirection): EdgeDirection => (direction === 'in' ? 'out' : 'in');

/**
 * The anchors that name a node: adjacency to another candidate of the same mention does not count
 * for it (a name's namesakes do not confirm each other). A node an anchor only describes
 * (`named: false`) may still be next to that anchor's named node (Tyrogue → Hitmontop, its evolution).
 */
const namesakes = (owners: readonly Owner[] | undefined): Set<number> =>
  new Set((owners ?? []).filter((o) => o.named).map((o) => o.anchor));

/**
 * One list of candidates with every score a relation-aware ranker needs (see `KnownScores`): BM25 of
 * the node's own document (`bm25`) and of its relation-aware document (`bm25Relations`, the
 * `combined` field), dense similarity (`dense`), adjacency to the nodes the query names
 * (`anchorLink`, with the relation's planned probability in `relationMatch`), whether the node is
 * itself named (`anchorSelf`), and the plan's type score (`targetType`). Candidates are the union of
 * the three rankings and of the mentioned nodes' neighbours; adjacency is checked from both sides, so
 * a hub's neighbours are found from the candidate side even when the hub's own list is cut.
 * Untrained order: `untrainedScore`.
 */
export class FieldTraverser implements TraverserV1 {
  readonly specificationVersion = 'v1';
  readonly name: string;
  private readonly options: FieldTraverserOptions;

  constructor(options: FieldTraverserOptions = {}) {
    this.name = options.name ?? 'fields';
    this.options = options;
  }

  doPrepare({ query, limit, context }: PrepareOptions): GlobalSearches {
    return this.globalSearches(query, limit, context);
  }

  async doTraverse(options: TraverseOptions): Promise<Candidate[]> {
    const { query, plan, limit, context } = options;
    if (query.trim() === '') return [];
    const searches =
      (options.prepared as GlobalSearches | undefined) ?? this.globalSearches(query, limit, context);
    const k = this.options.searchK ?? limit;
    const pool: Pool = {
      ids: [],
      members: new Set(),
      types: new Map(),
      document: new Map(),
      combined: new Map(),
      dense: new Map(),
      adjacency: new Map(),
      neighbourText: new Map(),
    };
    const [document, combined, dense, described, structural] = await Promise.all([
      searches.document,
      searches.combined,
      searches.dense,
      searches.described,
      this.anchorNeighbours(plan, context),
    ]);
    add(pool, document, pool.document, k);
    if (combined) add(pool, combined, pool.combined, k);
    const textual = new Set(pool.ids);
    if (dense) {
      add(pool, dense, pool.dense, k);
      for (const hit of dense.slice(k)) pool.dense.set(hit.id, hit.score);
    }
    await this.addStructural(query, structural, pool, context);
    for (const id of readingEndpoints(plan).keys()) join(pool, id);
    for (const id of pool.ids) if (!pool.dense.has(id) || pool.adjacency.has(id)) textual.add(id);
    await this.completeScores(query, pool, context, combined !== undefined);
    if (dense) {
      const floor = dense.at(-1)?.score ?? 0;
      for (const id of pool.ids) if (!pool.dense.has(id)) pool.dense.set(id, floor);
    }
    // Neither coherence nor `neighbourText` rests on the dense ranking: it differs between two
    // stores with the same documents (the embedder is fitted per store), their answers must not.
    const matched = new Set(document.slice(0, k).map((hit) => hit.id));
    await this.candidateNeighbours(query, plan, described, { matched, textual }, pool, context);
    return this.candidates(plan, pool, limit);
  }

  private targetTypes(context: RetrievalContext): readonly string[] | undefined {
    return narrowingTypes(context.schema.targetTypes, context.schema);
  }

  private globalSearches(query: string, limit: number, context: RetrievalContext): GlobalSearches {
    const k = this.options.searchK ?? limit;
    const types = this.targetTypes(context);
    const common = {
      limit: k,
      ...(types ? { filter: { nodeTypes: types } } : {}),
      ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
    };
    const first = (lists: Promise<IndexHit[][]>) => lists.then((l) => l[0] ?? []);
    const hasCombined = textFields(context.text).includes('combined');
    const describedK = this.options.describedK ?? 50;
    const searches: GlobalSearches = {
      document: first(searchText(context.text, [query], common)),
      combined: hasCombined
        ? first(searchText(context.text, [query], { ...common, field: 'combined' }))
        : undefined,
      dense:
        context.vector && context.embeddingModel
          ? first(
              searchVector(context.vector, context.embeddingModel, [query], {
                ...common,
                limit: Math.max(k, this.options.denseK ?? 300),
              }),
            )
          : undefined,
      described: describedK > 0 ? this.describedSearch(query, describedK, hasCombined, context) : undefined,
    };
    // Rejections surface in doTraverse when awaited; a handle that is never used must not crash the process.
    for (const search of [searches.document, searches.combined, searches.dense, searches.described])
      search?.catch(() => {});
    return searches;
  }

  /**
   * The nodes whose neighbours become candidates, with the anchors that hold them: the first
   * `nodesPerMention` candidates of each mention specific enough on its own (`minSpecificity`) and
   * beside the question's surest mention (`relativeSpecificity`).
   */
  private expanded(plan: Plan): Map<string, Owner[]> {
    const surest = Math.max(0, ...plan.anchors.map((a) => a.confidence));
    const floor = Math.max(
      this.options.minSpecificity ?? 0.2,
      surest * (this.options.relativeSpecificity ?? 0.8),
    );
    const perMention = this.options.nodesPerMention ?? 5;
    const owners = new Map<string, Owner[]>();
    plan.anchors.forEach((anchor, index) => {
      if (anchor.confidence < floor) return;
      for (const node of anchor.candidates.slice(0, perMention)) {
        const list = owners.get(node.id) ?? owners.set(node.id, []).get(node.id)!;
        list.push({
          anchor: index,
          weight: anchor.confidence * node.score,
          type: node.type,
          named: node.named !== false,
        });
      }
    });
    return owners;
  }

  /**
   * The neighbours of the nodes the query names (up to `neighborsPerNode` per node, of any edge
   * type): how each touches them, and each neighbour's type.
   */
  private async anchorNeighbours(
    plan: Plan,
    context: RetrievalContext,
  ): Promise<{ links: Map<string, Adjacency[]>; types: Map<string, string> }> {
    const owners = this.expanded(plan);
    const out = new Map<string, Adjacency[]>();
    const types = new Map<string, string>();
    if (owners.size === 0) return { links: out, types };
    const neighbours = await context.graph.doNeighbors({
      seeds: [...owners.keys()],
      direction: 'both',
      limitPerSeed: this.options.neighborsPerNode ?? 300,
      ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
    });
    for (const n of neighbours) {
      // A named node next to a node another mention names still counts as adjacent ("the hypernym
      // of 'cucumber' (a melon vine …)" names its answer); a mention never links its own namesakes.
      const namedBy = namesakes(owners.get(n.node));
      for (const owner of owners.get(n.seed) ?? []) {
        if (namedBy.has(owner.anchor)) continue;
        const list = out.get(n.node) ?? out.set(n.node, []).get(n.node)!;
        types.set(n.node, n.nodeType);
        list.push({
          anchor: owner.anchor,
          node: n.seed,
          nodeType: owner.type,
          edgeType: n.edgeType,
          direction: n.direction,
          weight: owner.weight,
        });
      }
    }
    return { links: out, types };
  }

  /** The mentioned nodes' neighbours of the target types whose documents best match the query. */
  private async addStructural(
    query: string,
    { links: structural, types }: { links: Map<string, Adjacency[]>; types: Map<string, string> },
    pool: Pool,
    context: RetrievalContext,
  ): Promise<void> {
    const targets = context.schema.targetTypes ? new Set(context.schema.targetTypes) : undefined;
    const ids = [...structural.keys()].filter((id) => !targets || targets.has(types.get(id)!));
    for (const id of ids) {
      pool.adjacency.set(id, structural.get(id)!);
      pool.types.set(id, types.get(id)!);
    }
    if (ids.length === 0) return;
    const [hits = []] = await searchText(context.text, [query], {
      limit: ids.length,
      filter: { ids },
      ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
    });
    const best = new Map(hits.map((h) => [h.id, h.score]));
    const top = Math.max(0, ...best.values());
    // The surest mention's neighbours first, each raised by how well its document matches: a node
    // next to the named entity with no word of the question must still be a candidate.
    const priority = (id: string) =>
      Math.max(...structural.get(id)!.map((a) => a.weight)) * (1 + (top > 0 ? (best.get(id) ?? 0) / top : 0));
    const chosen = [...ids]
      .sort((a, b) => priority(b) - priority(a) || a.localeCompare(b))
      .slice(0, this.options.structuralK ?? 100);
    for (const id of chosen) {
      join(pool, id);
      const score = best.get(id);
      if (score !== undefined && !pool.document.has(id)) pool.document.set(id, score);
    }
  }

  /** Scores the pool's nodes on the text fields they were not found by (one id-filtered search each). */
  private async completeScores(
    query: string,
    pool: Pool,
    context: RetrievalContext,
    hasCombined: boolean,
  ): Promise<void> {
    const signal = context.abortSignal ? { abortSignal: context.abortSignal } : {};
    const missing = (scores: Map<string, number>) => pool.ids.filter((id) => !scores.has(id));
    const fill = async (scores: Map<string, number>, search: (ids: string[]) => Promise<IndexHit[][]>) => {
      const ids = missing(scores);
      if (ids.length === 0) return;
      const [hits = []] = await search(ids);
      for (const hit of hits) {
        scores.set(hit.id, hit.score);
        if (hit.type !== undefined && !pool.types.has(hit.id)) pool.types.set(hit.id, hit.type);
      }
    };
    await Promise.all([
      fill(pool.document, (ids) =>
        searchText(context.text, [query], { limit: ids.length, filter: { ids }, ...signal }),
      ),
      hasCombined
        ? fill(pool.combined, (ids) =>
            searchText(context.text, [query], {
              limit: ids.length,
              filter: { ids },
              field: 'combined',
              ...signal,
            }),
          )
        : undefined,
    ]);
  }

  /**
   * What the candidates' own neighbour lists say (a hub's list, seen from its side, would be cut at
   * `neighborsPerNode`): adjacency to a mentioned node, and which of the question's matches over
   * every type (`described`) each candidate is next to, weighed by coherence, for `neighbourText`.
   */
  private async candidateNeighbours(
    query: string,
    plan: Plan,
    described: readonly IndexHit[] | undefined,
    { matched, textual }: { readonly matched: ReadonlySet<string>; readonly textual: ReadonlySet<string> },
    pool: Pool,
    context: RetrievalContext,
  ): Promise<void> {
    const named = this.expanded(plan);
    const top = described?.[0]?.score ?? 0;
    const share = new Map(top > 0 ? described!.map((hit) => [hit.id, hit.score / top]) : []);
    const needAdjacency = new Set(named.size > 0 ? pool.ids.filter((id) => !pool.adjacency.has(id)) : []);
    const seeds = share.size > 0 ? pool.ids : [...needAdjacency];
    if (seeds.length === 0) return;
    const neighbours = await context.graph.doNeighbors({
      seeds,
      direction: 'both',
      // Without described matches only the named nodes' types matter; a cap keeps a hub candidate cheap.
      ...(share.size === 0
        ? { nodeTypes: [...new Set([...named.values()].flatMap((list) => list.map((o) => o.type)))] }
        : {}),
      limitPerSeed: 2000,
      ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
    });
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
    if (nextTo.size > 0) await this.neighbourText(query, nextTo, pool, context);
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
  private async neighbourText(
    query: string,
    described: ReadonlyMap<string, ReadonlyMap<string, number>>,
    pool: Pool,
    context: RetrievalContext,
  ): Promise<void> {
    const text = context.text;
    const analyse = text.specificationVersion === 'v2' ? text.doTermStatistics : undefined;
    if (!analyse) {
      for (const [id, list] of described) pool.neighbourText.set(id, Math.max(...list.values()));
      return;
    }
    const ids = [...new Set([...described.keys(), ...[...described.values()].flatMap((m) => [...m.keys()])])];
    const nodes = await context.graph.doGetNodes(
      ids,
      context.abortSignal ? { abortSignal: context.abortSignal } : {},
    );
    // A node's document as the text index composes it: name, aliases, text.
    const documents = nodes.map((node) =>
      node
        ? [node.name, ...(node.aliases ?? []), node.text].filter((part) => part.length > 0).join(' ; ')
        : '',
    );
    const [question, ...analysed] = await analyse.call(text, { texts: [query, ...documents] });
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
    const outsideWeight = this.options.outsideTargetsWeight ?? 1.5;
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

  /**
   * The question's best matches over every node type, by own document and (where the index has it)
   * relation-aware document, each scored by its share of its field's best: a node with no text of
   * its own is described by what it is linked to.
   */
  private async describedSearch(
    query: string,
    k: number,
    hasCombined: boolean,
    context: RetrievalContext,
  ): Promise<IndexHit[]> {
    const search = (field?: string) =>
      searchText(context.text, [query], {
        limit: k,
        ...(field ? { field } : {}),
        ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
      }).then((lists) => lists[0] ?? []);
    const lists = await Promise.all([search(), hasCombined ? search('combined') : []]);
    const share = new Map<string, IndexHit>();
    for (const list of lists) {
      const top = list[0]?.score ?? 0;
      if (top <= 0) continue;
      for (const hit of list) {
        const s = hit.score / top;
        if (s > (share.get(hit.id)?.score ?? 0)) share.set(hit.id, { ...hit, score: s });
      }
    }
    return [...share.values()].sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
  }

  private candidates(plan: Plan, pool: Pool, limit: number): Candidate[] {
    const typeScore = new Map(plan.targetTypes.map((t) => [t.type, t.score]));
    const named = new Map<string, number>();
    for (const anchor of plan.anchors)
      for (const node of anchor.candidates)
        named.set(node.id, Math.max(named.get(node.id) ?? 0, anchor.confidence * node.score));
    const pathConfidence = new Map<string, number>();
    for (const path of plan.paths) {
      const hop = path.hops[0];
      // A query-graph reading (one sense's path) speaks through `queryGraph`, not through adjacency.
      if (path.anchor === undefined || !hop || path.hops.length !== 1 || path.node !== undefined) continue;
      const key = `${path.anchor}|${hop.edgeType}|${hop.direction}`;
      pathConfidence.set(key, Math.max(pathConfidence.get(key) ?? 0, path.confidence ?? path.score));
    }
    const gate = Math.max(0, ...plan.anchors.map((a) => a.confidence));
    const readings = readingEndpoints(plan);
    const maxOf = (m: Map<string, number>) => Math.max(0, ...m.values());
    const max = { document: maxOf(pool.document), combined: maxOf(pool.combined), dense: maxOf(pool.dense) };
    const out: Candidate[] = pool.ids.map((id) => {
      const adjacency = pool.adjacency.get(id) ?? [];
      const anchorLink = Math.max(0, ...adjacency.map((a) => a.weight));
      const relationMatch = Math.max(
        0,
        ...adjacency.map(
          (a) => a.weight * (pathConfidence.get(`${a.anchor}|${a.edgeType}|${a.direction}`) ?? 0),
        ),
      );
      const type = pool.types.get(id);
      const scores: Record<string, number> = {
        bm25: pool.document.get(id) ?? 0,
        bm25Relations: pool.combined.get(id) ?? 0,
        ...(pool.dense.size > 0 ? { dense: pool.dense.get(id) ?? 0 } : {}),
        ...(this.options.describedK !== 0 ? { neighbourText: pool.neighbourText.get(id) ?? 0 } : {}),
        anchorLink,
        anchorSelf: named.get(id) ?? 0,
        ...(type !== undefined && typeScore.size > 0 ? { targetType: typeScore.get(type) ?? 0 } : {}),
        ...(plan.paths.length > 0 ? { relationMatch } : {}),
        ...(readings.size > 0 ? { queryGraph: readings.get(id) ?? 0 } : {}),
      };
      const trajectories: Trajectory[] = adjacency.slice(0, 3).map((a) => ({
        hops: [
          { node: a.node, nodeType: a.nodeType, via: 'anchor' as const, textScore: a.weight },
          {
            node: id,
            ...(type !== undefined ? { nodeType: type } : {}),
            edgeType: a.edgeType,
            direction: a.direction,
            via: 'structure' as const,
          },
        ],
      }));
      if (trajectories.length === 0) {
        trajectories.push({
          hops: [
            {
              node: id,
              ...(type !== undefined ? { nodeType: type } : {}),
              via: pool.document.has(id) || pool.combined.has(id) ? ('text' as const) : ('vector' as const),
              textScore: scores.bm25!,
            },
          ],
        });
      }
      return {
        id,
        ...(type !== undefined ? { type } : {}),
        score: untrainedScore(scores, max, gate),
        scores,
        trajectories,
        source: this.name,
      };
    });
    out.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
    return out.slice(0, limit);
  }
}
