import { anchorSeeds, ArtifactCache, narrowingTypes, queryNames, searchText, withTextField } from '@weft/kit';
import { embedMany } from 'ai';
import { contentWords } from '@weft/grounding';
import type {
  Candidate,
  IndexHit,
  Plan,
  PrepareOptions,
  RetrievalContext,
  Trajectory,
  TrajectoryHop,
  TraverserV1,
  TraverseOptions,
} from '@weft/spec';
import {
  type ExpertGateModel,
  expertGateArtifact,
  expertNames,
  gateFeatureNames,
  gateWeights,
  untrainedWeights,
} from './expert-gate.ts';
import { llmExpertWeights } from './llm-expert-weights.ts';
import { loadNeighbourhood, type Neighbourhood } from './neighbourhood.ts';
import { type RelationExpertResult, relationExpert } from './relation-expert.ts';
import { type SubgraphExpertOptions, type SubgraphExpertResult, subgraphExpert } from './subgraph-expert.ts';

export interface MixtureTraverserOptions {
  /** Shown in traces (default `'mixrag'`). */
  readonly name?: string;
  /** A fitted gate; else read from `context.artifacts` under `artifact`; else the untrained weights (`untrainedExpertWeights`). */
  readonly gate?: ExpertGateModel;
  /** Artifact name of the gate (`artifactName(stack, 'gate')`). */
  readonly artifact?: string;
  /**
   * Ask `context.languageModel` for the experts' weights (one call per query); the learned gate
   * answers when there is no model or the call fails (default false).
   */
  readonly llmGate?: boolean;
  /** Nodes the entity expert returns (default 100). */
  readonly entityK?: number;
  /** Entity-expert nodes whose edges form the neighbourhood, beside the named nodes (default 10). */
  readonly neighbourhoodSeeds?: number;
  /** Edges per seed (default 100). */
  readonly edgesPerSeed?: number;
  /** Triples the relation expert returns (default 100). */
  readonly relationK?: number;
  /**
   * Score the relation expert's best triples densely too (cosine with the store's embedding model,
   * fused with BM25 by reciprocal rank) when the store has one (default false: one embedding call
   * per query over `denseTriplesK` triples).
   */
  readonly denseTriples?: boolean;
  /** Triples embedded per query (default 200). */
  readonly denseTriplesK?: number;
  readonly subgraph?: SubgraphExpertOptions;
  /** Linked nodes per mention that seed the neighbourhood (default 3), from mentions this specific (default 0.2). */
  readonly nodesPerMention?: number;
  readonly minSpecificity?: number;
  /** The constant of the reciprocal-rank scores the gate mixes (default: the gate's, else 10). */
  readonly rankConstant?: number;
  /**
   * The text field its searches rank by where the store has it, e.g. `combined` (the document with its
   * neighbours' names by relation); default: the node's own document.
   */
  readonly field?: string;
}

/** What the experts found for one query: what the gate weighs and what `trainMixtureGate` learns from. */
export interface ExpertOutputs {
  /** Each expert's ranking of target-type nodes, best first. */
  readonly rankings: Readonly<Record<(typeof expertNames)[number], readonly string[]>>;
  /** The gate's inputs, in the order of `gateFeatureNames`. */
  readonly features: readonly number[];
  readonly entity: readonly IndexHit[];
  readonly relation: RelationExpertResult;
  readonly subgraph: SubgraphExpertResult;
  readonly neighbourhood: Neighbourhood;
  readonly anchors: ReadonlyMap<string, number>;
  /** The nodes a query that is nothing but a name asks for (`queryNames`): among the candidates, they lead. */
  readonly asked: readonly string[];
}

interface Prepared {
  readonly entity: Promise<IndexHit[]>;
}

/**
 * MixRAG offline: three retrieval experts and a query-dependent gate. The entity expert ranks nodes
 * by BM25 of their documents; the relation expert ranks the triples around the named nodes and the
 * best entities, verbalised, by BM25 against the query; the subgraph expert puts prizes on the top
 * nodes and triples and keeps the prize-collecting Steiner tree of that neighbourhood. Each expert's
 * ranking becomes reciprocal-rank scores (`expertEntity`, `expertRelation`, `expertSubgraph`), and
 * the gate's weights for this query (`gateEntity`, … on every candidate) mix them. Candidates carry
 * the tree as trajectories: the path from the tree's root to them.
 */
export class MixtureTraverser implements TraverserV1 {
  readonly specificationVersion = 'v1';
  readonly name: string;
  private readonly options: MixtureTraverserOptions;
  /** Loaded once per artifact store: one traverser serves several stores. */
  private readonly gates = new ArtifactCache(expertGateArtifact);

  constructor(options: MixtureTraverserOptions = {}) {
    this.name = options.name ?? 'mixrag';
    this.options = options;
  }

  doPrepare({ query, context }: PrepareOptions): Prepared {
    const prepared = { entity: this.entitySearch(query, withTextField(context, this.options.field)) };
    prepared.entity.catch(() => {});
    return prepared;
  }

  async doTraverse(options: TraverseOptions): Promise<Candidate[]> {
    const { query, plan, limit, context } = options;
    if (query.trim() === '') return [];
    const outputs = await this.experts(query, plan, context, options.prepared as Prepared | undefined);
    const gate = await this.gate(context);
    const weights = await this.weights(query, outputs, gate, context);
    return this.candidates(outputs, weights, limit, gate?.rankConstant);
  }

  /** Runs the three experts (what training needs without the gate). */
  async experts(
    query: string,
    plan: Plan,
    context: RetrievalContext,
    prepared?: Prepared,
  ): Promise<ExpertOutputs> {
    context = withTextField(context, this.options.field);
    const global = await (prepared?.entity ?? this.entitySearch(query, context));
    const anchors = anchorSeeds(plan, {
      minConfidence: this.options.minSpecificity ?? 0.2,
      perAnchor: this.options.nodesPerMention ?? 3,
    });
    const seeds = [
      ...new Set([
        ...anchors.keys(),
        ...global.slice(0, this.options.neighbourhoodSeeds ?? 10).map((h) => h.id),
      ]),
    ];
    const neighbourhood = await loadNeighbourhood(seeds, context, {
      perSeed: this.options.edgesPerSeed ?? 100,
    });
    // The entity expert also scores the neighbourhood's nodes (one id-filtered search): its global
    // top-k misses most of them, and the relation expert orders the many triples that match only a
    // named node by how well their other end matches the query.
    const entity = await this.withNeighbourhood(query, global, neighbourhood, context);
    const topEntity = entity[0]?.score ?? 0;
    const prior = new Map(entity.map((h) => [h.id, topEntity > 0 ? h.score / topEntity : 0]));
    const lexicalOptions = { topK: this.options.relationK ?? 100, prior, named: anchors };
    const dense = await this.denseTriples(query, neighbourhood, lexicalOptions, context);
    const relation = relationExpert(query, neighbourhood, { ...lexicalOptions, ...(dense ? { dense } : {}) });
    // Named nodes first (their prize is the most certain), then the entity expert's order.
    const rankedNodes = [
      ...[...anchors].sort((a, b) => b[1] - a[1]).map(([id]) => id),
      ...entity.map((h) => h.id).filter((id) => !anchors.has(id)),
    ];
    const subgraph = subgraphExpert(
      neighbourhood,
      rankedNodes,
      relation.triples.map((t) => t.triple),
      this.options.subgraph,
    );
    const types = new Map(neighbourhood.types);
    for (const hit of entity) if (hit.type !== undefined) types.set(hit.id, hit.type);
    const targets = context.schema.targetTypes ? new Set(context.schema.targetTypes) : undefined;
    const isTarget = (id: string) => !anchors.has(id) && (!targets || targets.has(types.get(id) ?? ''));
    const relationRanking = [...relation.nodes]
      .filter(([id]) => isTarget(id))
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([id]) => id);
    const entityScore = new Map(entity.map((h) => [h.id, h.score]));
    const subgraphRanking = [...subgraph.nodes]
      .filter(isTarget)
      .sort(
        (a, b) =>
          (subgraph.prizes.get(b) ?? 0) - (subgraph.prizes.get(a) ?? 0) ||
          (entityScore.get(b) ?? 0) - (entityScore.get(a) ?? 0) ||
          (subgraph.paths.get(a)?.length ?? 0) - (subgraph.paths.get(b)?.length ?? 0) ||
          a.localeCompare(b),
      );
    const rankings = {
      entity: entity.map((h) => h.id),
      relation: relationRanking,
      subgraph: subgraphRanking,
    };
    return {
      rankings,
      features: this.features(query, plan, { entity, relation, rankings }),
      entity,
      relation,
      subgraph,
      neighbourhood,
      anchors,
      asked: queryNames(plan),
    };
  }

  /** The gate's inputs (see `gateFeatureNames`), each scaled to about [0, 1]. */
  private features(
    query: string,
    plan: Plan,
    found: {
      entity: readonly IndexHit[];
      relation: RelationExpertResult;
      rankings: ExpertOutputs['rankings'];
    },
  ): number[] {
    const specific = plan.anchors.filter((a) => a.confidence >= (this.options.minSpecificity ?? 0.2));
    const top = found.entity[0]?.score ?? 0;
    const second = found.entity[1]?.score ?? 0;
    const relationTop = found.relation.triples[0]?.score ?? 0;
    const entityTop10 = new Set(found.rankings.entity.slice(0, 10));
    const overlap = found.rankings.relation.slice(0, 10).filter((id) => entityTop10.has(id)).length / 10;
    const values: Record<(typeof gateFeatureNames)[number], number> = {
      anchorConfidence: Math.max(0, ...specific.map((a) => a.confidence)),
      anchorCount: Math.min(3, specific.length) / 3,
      queryWords: Math.min(30, contentWords(query).length) / 30,
      entityGap: top > 0 ? (top - second) / top : 0,
      relationStrength: top > 0 ? Math.min(2, relationTop / top) / 2 : relationTop > 0 ? 1 : 0,
      expertOverlap: overlap,
      treeTargets: Math.min(20, found.rankings.subgraph.length) / 20,
      plannedPaths: plan.paths.length > 0 ? 1 : 0,
    };
    return gateFeatureNames.map((name) => values[name]);
  }

  /**
   * Cosine of the query and the verbalised triples (the lexical expert's top `denseTriplesK`), with
   * the store's embedding model, when `denseTriples` is on and the store has one.
   */
  private async denseTriples(
    query: string,
    neighbourhood: Neighbourhood,
    lexical: Parameters<typeof relationExpert>[2],
    context: RetrievalContext,
  ): Promise<Map<number, number> | undefined> {
    if (!this.options.denseTriples || !context.embeddingModel) return undefined;
    const top = relationExpert(query, neighbourhood, {
      ...lexical,
      topK: this.options.denseTriplesK ?? 200,
    }).triples;
    if (top.length === 0) return undefined;
    const { embeddings } = await embedMany({
      model: context.embeddingModel,
      values: [query, ...top.map((t) => t.text)],
      ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
    });
    const [q, ...rest] = embeddings;
    const norm = (v: readonly number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
    const qn = norm(q!);
    return new Map(
      top.map((t, i) => {
        const v = rest[i]!;
        const dot = v.reduce((s, x, j) => s + x * q![j]!, 0);
        return [t.index, Math.max(0, dot / (qn * norm(v)))];
      }),
    );
  }

  /** The global hits and the neighbourhood's target-type nodes, scored by the same search, best first. */
  private async withNeighbourhood(
    query: string,
    global: readonly IndexHit[],
    neighbourhood: Neighbourhood,
    context: RetrievalContext,
  ): Promise<IndexHit[]> {
    const targets = context.schema.targetTypes ? new Set(context.schema.targetTypes) : undefined;
    const known = new Set(global.map((h) => h.id));
    const ids = [...neighbourhood.types]
      .filter(([id, type]) => !known.has(id) && (!targets || targets.has(type)))
      .map(([id]) => id);
    if (ids.length === 0) return [...global];
    const [hits = []] = await searchText(context.text, [query], {
      limit: ids.length,
      filter: { ids },
      ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
    });
    return [...global, ...hits].sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
  }

  private entitySearch(query: string, context: RetrievalContext): Promise<IndexHit[]> {
    if (query.trim() === '') return Promise.resolve([]);
    const types = narrowingTypes(context.schema.targetTypes, context.schema);
    return searchText(context.text, [query], {
      limit: this.options.entityK ?? 100,
      ...(types ? { filter: { nodeTypes: types } } : {}),
      ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
    }).then((lists) => lists[0] ?? []);
  }

  /** The gate's weights for this query: the model's when asked and it answers, else the learned gate's. */
  private async weights(
    query: string,
    outputs: ExpertOutputs,
    gate: ExpertGateModel | undefined,
    context: RetrievalContext,
  ): Promise<number[]> {
    if (this.options.llmGate) {
      if (!context.languageModel)
        context.warn?.('weigh experts: no language model; the learned gate weighs the experts');
      else {
        const asked = await llmExpertWeights(query, context);
        if (asked) return asked;
      }
    }
    return gate ? gateWeights(gate, outputs.features) : untrainedWeights(outputs.features);
  }

  /** The fitted gate of this context's store; without one the experts weigh equally (and the trace says why). */
  private async gate(context: RetrievalContext): Promise<ExpertGateModel | undefined> {
    if (this.options.gate) return this.options.gate;
    return this.options.artifact ? this.gates.get(context, this.options.artifact) : undefined;
  }

  /** Mixes the experts' reciprocal-rank scores with the gate's weights. */
  candidates(
    outputs: ExpertOutputs,
    weights: readonly number[],
    limit: number,
    rankConstant = this.options.rankConstant ?? 10,
  ): Candidate[] {
    const c = rankConstant;
    const rr = (list: readonly string[]) => new Map(list.map((id, rank) => [id, (c + 1) / (c + rank + 1)]));
    const perExpert = expertNames.map((name) => rr(outputs.rankings[name]));
    const ids = [...new Set(expertNames.flatMap((name) => outputs.rankings[name]))];
    const entityScore = new Map(outputs.entity.map((h) => [h.id, h.score]));
    const types = new Map(outputs.neighbourhood.types);
    for (const hit of outputs.entity) if (hit.type !== undefined) types.set(hit.id, hit.type);
    const gate = { gateEntity: weights[0]!, gateRelation: weights[1]!, gateSubgraph: weights[2]! };
    const out: Candidate[] = ids.map((id) => {
      const [entity = 0, relation = 0, subgraph = 0] = perExpert.map((m) => m.get(id) ?? 0);
      const type = types.get(id);
      return {
        id,
        ...(type !== undefined ? { type } : {}),
        score: weights[0]! * entity + weights[1]! * relation + weights[2]! * subgraph,
        scores: {
          ...(entityScore.has(id) ? { bm25: entityScore.get(id)! } : {}),
          expertEntity: entity,
          expertRelation: relation,
          expertSubgraph: subgraph,
          ...gate,
        },
        trajectories: this.trajectories(id, outputs),
        source: this.name,
      };
    });
    // A query that is nothing but a name asks for that node: it leads (every mixed score is at most 1).
    const asked = new Set(outputs.asked);
    const ranked = out.map((c) => (asked.has(c.id) ? { ...c, score: c.score + 1 } : c));
    ranked.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
    return ranked.slice(0, limit);
  }

  /** The tree's path from its root, the best triple the node is an end of, and its own text hop. */
  private trajectories(id: string, outputs: ExpertOutputs): Trajectory[] {
    const types = outputs.neighbourhood.types;
    const typed = (node: string) => {
      const type = types.get(node);
      return type !== undefined ? { nodeType: type } : {};
    };
    const start = (node: string): TrajectoryHop =>
      outputs.anchors.has(node)
        ? { node, ...typed(node), via: 'anchor', textScore: outputs.anchors.get(node)! }
        : { node, ...typed(node), via: 'text' };
    const out: Trajectory[] = [];
    const path = outputs.subgraph.paths.get(id);
    if (path && path.length > 0) {
      out.push({
        hops: [
          start(path[0]!.from),
          ...path.map((step) => ({
            node: step.to,
            ...typed(step.to),
            edgeType: step.edgeType,
            direction: step.direction,
            via: 'structure' as const,
          })),
        ],
      });
    }
    const triple = outputs.relation.triples.find((t) => t.triple.head === id || t.triple.tail === id);
    if (triple) {
      const other = triple.triple.head === id ? triple.triple.tail : triple.triple.head;
      const hops: TrajectoryHop[] = [
        start(other),
        {
          node: id,
          ...typed(id),
          edgeType: triple.triple.edgeType,
          direction: triple.triple.head === other ? 'out' : 'in',
          via: 'structure',
          textScore: triple.score,
        },
      ];
      if (!out.some((t) => t.hops.length === 2 && t.hops[0]!.node === other)) out.push({ hops });
    }
    const hit = outputs.entity.find((h) => h.id === id);
    if (hit || out.length === 0)
      out.push({ hops: [{ node: id, ...typed(id), via: 'text', ...(hit ? { textScore: hit.score } : {}) }] });
    return out;
  }
}
