import { edgeTypeWords, narrowingTypes, searchText } from '@weft/kit';
import { contentWords, groundQuestion } from '@weft/grounding';
import type { EdgeDirection, ExpansionTriple, PlannerV1, RetrievalContext } from '@weft/spec';

/** A node the query names, linked by the expander. */
export interface KarEntity {
  readonly id: string;
  readonly name: string;
  readonly type: string;
  readonly text: string;
  /** The query's words that named it. */
  readonly mention: string;
  /** How surely the mention names a node, in [0, 1]. */
  readonly confidence: number;
}

/** A neighbour of a linked entity that survived the relation filtering. */
export interface KarNeighbour {
  readonly id: string;
  readonly name: string;
  readonly type: string;
  readonly text: string;
  /** The entity it hangs off (its id), one or two hops away. */
  readonly entity: string;
  /** The node it was reached from: the entity, or the first-hop neighbour. */
  readonly from: string;
  readonly edgeType: string;
  /** Seen from `from`: `out` when the edge runs from → this node as stored. */
  readonly direction: EdgeDirection;
  readonly hops: 1 | 2;
  /** How well it matches the query: BM25 of its document (or its name, with name filtering). */
  readonly score: number;
}

/** What the expander knows of a query: the entities it names and their best neighbours. */
export interface KarKnowledge {
  readonly entities: readonly KarEntity[];
  /** At most `k`, best first. */
  readonly neighbours: readonly KarNeighbour[];
  /** (subject, relation, object) by name, one per neighbour, in the edge's stored direction. */
  readonly triples: readonly ExpansionTriple[];
}

export interface GatherOptions {
  /**
   * Links the query's mentions instead of `groundQuestion` of `@weft/grounding`: a planner whose anchors
   * are used (e.g. a trained `LexicalPlanner`, whose mention model knows which mentions name anchors).
   */
  readonly linker?: PlannerV1;
  /** Mentions below this confidence are not expanded (default 0.5). */
  readonly minConfidence?: number;
  /** Most entities expanded, surest first (default 3). */
  readonly maxEntities?: number;
  /**
   * Neighbourhood radius, 1 or 2 (default 1: on the val splits of WordNet and Pokémon, second-hop
   * neighbours crowded out the first-hop ones that held the answers more often than they helped).
   */
  readonly hops?: 1 | 2;
  /** Neighbours fetched per node and hop (default 300): hubs are sampled. */
  readonly neighboursPerNode?: number;
  /** Neighbours kept after filtering (KAR's k, default 10). */
  readonly k?: number;
  /**
   * How neighbours are filtered: by the similarity of their documents to the query (`document`,
   * KAR's relation filtering, the default) or of their names only (`name`, KAR's ablation).
   */
  readonly filtering?: 'document' | 'name';
  /**
   * With document filtering, a neighbour must also match the query at least this share of the best
   * document of the target types that is not a linked entity (default 0.7; 0 keeps the top `k`
   * whatever they score): a neighbourhood whose documents match the question worse than the rest of
   * the KB holds no knowledge for it.
   */
  readonly minRelevance?: number;
}

const signal = (context: RetrievalContext) =>
  context.abortSignal ? { abortSignal: context.abortSignal } : {};

/** The entities a query names: a linker planner's anchors, or `groundQuestion`. */
async function linkEntities(query: string, context: RetrievalContext, options: GatherOptions) {
  const floor = options.minConfidence ?? 0.5;
  const found: { id: string; mention: string; confidence: number }[] = [];
  if (options.linker) {
    const plan = await options.linker.doPlan({ query, feedback: [], context });
    for (const anchor of plan.anchors) {
      const node = anchor.candidates[0];
      if (node && anchor.confidence >= floor)
        found.push({ id: node.id, mention: anchor.mention, confidence: anchor.confidence * node.score });
    }
  } else {
    for (const mention of (await groundQuestion(query, context)).mentions) {
      const node = mention.candidates[0];
      if (node && node.probability >= floor)
        found.push({ id: node.id, mention: mention.text, confidence: node.probability });
    }
  }
  found.sort((a, b) => b.confidence - a.confidence || a.id.localeCompare(b.id));
  const seen = new Set<string>();
  return found.filter((f) => !seen.has(f.id) && seen.add(f.id)).slice(0, options.maxEntities ?? 3);
}

/** Share of a name's words that the query uses: KAR's entity-name filtering (the ablation). */
function nameScore(name: string, queryWords: ReadonlySet<string>): number {
  const words = contentWords(name);
  if (words.length === 0) return 0;
  return words.filter((w) => queryWords.has(w)).length / words.length;
}

/**
 * KAR's knowledge for a query: link the entities it names, fetch their neighbours (the second hop
 * from the best first-hop ones), score each neighbour by how well its document matches the query
 * (one id-filtered BM25 search per hop) and keep the top `k`.
 */
export async function gatherKnowledge(
  query: string,
  context: RetrievalContext,
  options: GatherOptions = {},
): Promise<KarKnowledge> {
  const linked = query.trim() === '' ? [] : await linkEntities(query, context, options);
  if (linked.length === 0) return { entities: [], neighbours: [], triples: [] };
  const nodes = await context.graph.doGetNodes(
    linked.map((l) => l.id),
    signal(context),
  );
  const entities: KarEntity[] = linked.flatMap((l, i) => {
    const node = nodes[i];
    return node
      ? [
          {
            id: node.id,
            name: node.name,
            type: node.type,
            text: node.text,
            mention: l.mention,
            confidence: l.confidence,
          },
        ]
      : [];
  });
  const k = options.k ?? 10;
  const perNode = options.neighboursPerNode ?? 300;
  const entityIds = new Set(entities.map((e) => e.id));
  const queryWords = new Set(contentWords(query));
  const byDocument = (options.filtering ?? 'document') === 'document';
  const minRelevance = byDocument ? (options.minRelevance ?? 0.7) : 0;
  let floor = 0;
  if (minRelevance > 0) {
    const types = narrowingTypes(context.schema.targetTypes, context.schema);
    const [hits = []] = await searchText(context.text, [query], {
      limit: entityIds.size + 1,
      ...(types ? { filter: { nodeTypes: types } } : {}),
      ...signal(context),
    });
    floor = minRelevance * (hits.find((hit) => !entityIds.has(hit.id))?.score ?? 0);
  }

  /** Scores candidate neighbours and keeps the best `k`. */
  const filter = async (
    reached: Map<string, Omit<KarNeighbour, 'name' | 'type' | 'text' | 'score'>>,
  ): Promise<KarNeighbour[]> => {
    const ids = [...reached.keys()];
    if (ids.length === 0) return [];
    let scores: Map<string, number> | undefined;
    if (byDocument) {
      const [hits = []] = await searchText(context.text, [query], {
        limit: k,
        filter: { ids },
        ...signal(context),
      });
      scores = new Map(hits.map((hit) => [hit.id, hit.score]));
    }
    const fetched = await context.graph.doGetNodes(scores ? [...scores.keys()] : ids, signal(context));
    const all: KarNeighbour[] = [];
    for (const node of fetched) {
      if (!node) continue;
      const score = scores ? scores.get(node.id)! : nameScore(node.name, queryWords);
      if (score <= 0 || score < floor) continue;
      all.push({ ...reached.get(node.id)!, name: node.name, type: node.type, text: node.text, score });
    }
    return all.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id)).slice(0, k);
  };

  const first = new Map<string, Omit<KarNeighbour, 'name' | 'type' | 'text' | 'score'>>();
  for (const n of await context.graph.doNeighbors({
    seeds: [...entityIds],
    direction: 'both',
    limitPerSeed: perNode,
    ...signal(context),
  })) {
    if (entityIds.has(n.node) || first.has(n.node)) continue;
    first.set(n.node, {
      id: n.node,
      entity: n.seed,
      from: n.seed,
      edgeType: n.edgeType,
      direction: n.direction,
      hops: 1,
    });
  }
  let kept = await filter(first);
  if ((options.hops ?? 1) === 2 && kept.length > 0) {
    const second = new Map<string, Omit<KarNeighbour, 'name' | 'type' | 'text' | 'score'>>();
    const via = new Map(kept.map((n) => [n.id, n]));
    for (const n of await context.graph.doNeighbors({
      seeds: kept.map((n) => n.id),
      direction: 'both',
      limitPerSeed: Math.max(1, Math.floor(perNode / 4)),
      ...signal(context),
    })) {
      if (entityIds.has(n.node) || first.has(n.node) || second.has(n.node)) continue;
      const parent = via.get(n.seed)!;
      second.set(n.node, {
        id: n.node,
        entity: parent.entity,
        from: n.seed,
        edgeType: n.edgeType,
        direction: n.direction,
        hops: 2,
      });
    }
    kept = [...kept, ...(await filter(second))]
      .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id))
      .slice(0, k);
  }
  const names = new Map<string, string>([
    ...entities.map((e) => [e.id, e.name] as const),
    ...kept.map((n) => [n.id, n.name] as const),
  ]);
  const missing = kept.filter((n) => !names.has(n.from)).map((n) => n.from);
  if (missing.length > 0) {
    const extra = await context.graph.doGetNodes(missing, signal(context));
    for (const node of extra) if (node) names.set(node.id, node.name);
  }
  const triples = kept.map((n) => {
    const from = names.get(n.from) ?? n.from;
    return n.direction === 'out'
      ? { subject: from, relation: relationPhrase(n.edgeType), object: n.name }
      : { subject: n.name, relation: relationPhrase(n.edgeType), object: from };
  });
  return { entities, neighbours: kept, triples };
}

/** An edge type as words: `has_hidden_ability` → `has hidden ability`. */
export function relationPhrase(edgeType: string): string {
  return edgeTypeWords(edgeType) || edgeType;
}
