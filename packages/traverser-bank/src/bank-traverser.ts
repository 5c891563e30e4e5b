import { narrowingTypes, searchText } from '@weft/kit';
import {
  type BankAction,
  type EgoGraphOptions,
  type EgoStep,
  egoGraphs,
  readBankAction,
} from '@weft/ego-graph';
import type {
  Candidate,
  IndexHit,
  PrepareOptions,
  RetrievalContext,
  Trajectory,
  TrajectoryHop,
  TraverserV1,
  TraverseOptions,
} from '@weft/spec';

export interface BankTraverserOptions {
  /** Shown in traces (default `'bank'`). */
  readonly name?: string;
  /** The text field the text module ranks by (default: the index's document field, as `bm25`). */
  readonly field?: string;
  /** The text field the hybrid module ranks the ego-graph's documents by (default: `field`). */
  readonly memberField?: string;
  /**
   * What the hybrid module ranks the ego-graph's documents by: the whole question (default) or the
   * plan's restriction (the question without its linked mentions).
   */
  readonly rankBy?: 'query' | 'restriction';
  /**
   * A planned target type filters the ego-graph when its score is at least this share of the best
   * type's (default 0.5); below, every target type of the schema is kept. 1 = only the best type.
   */
  readonly typeShare?: number;
  /**
   * The best planned type must score at least this for any type filter to apply (default: no
   * filter). On WordNet, lexical type predictions were too often wrong for a hard filter.
   */
  readonly minTypeScore?: number;
  readonly egoGraph?: EgoGraphOptions;
}

/** The text module's search, started by `doPrepare` while the router plans. */
interface TextSearch {
  readonly hits: Promise<IndexHit[]>;
}

/** An ego-graph member with what reached it. */
interface Member {
  readonly id: string;
  readonly type: string;
  /** Share of the topic entities whose ego-graph holds it, in (0, 1]. */
  readonly coverage: number;
  /** Steps from each entity that reached it. */
  readonly reached: readonly { readonly entity: number; readonly steps: readonly EgoStep[] }[];
}

/**
 * HybGRAG's retriever bank, one module per round as the plan says (`readBankAction` of
 * `@weft/ego-graph`):
 *
 * - **text**: BM25 over the documents of the schema's target types (what `bm25` returns);
 * - **hybrid**: the ego-graph of each topic entity along its relation paths (radius ≤ 2), intersected
 *   over the entities, kept to the target types, and its documents ranked by BM25 against the
 *   question; when the intersection is empty the union stands in, ranked by how many entities reach
 *   each node (the critic reports the empty intersection);
 * - **graph**: the same ego-graph without text ranking, for schemas whose nodes have no documents.
 *
 * Ego-graph members come first (with their steps from the entities as trajectories), then the text
 * module's ranking fills the list, so a wrong action costs precision but never empties the result.
 * Members the text ranking does not match at all come last.
 */
export class BankTraverser implements TraverserV1 {
  readonly specificationVersion = 'v1';
  readonly name: string;
  private readonly options: BankTraverserOptions;

  constructor(options: BankTraverserOptions = {}) {
    this.name = options.name ?? 'bank';
    this.options = options;
  }

  doPrepare({ query, limit, context }: PrepareOptions): TextSearch {
    const hits = this.textSearch(query, limit, context);
    // A handle that is never used must not crash the process; doTraverse awaits it and sees the error.
    hits.catch(() => {});
    return { hits };
  }

  async doTraverse(options: TraverseOptions): Promise<Candidate[]> {
    const { query, plan, limit, context } = options;
    if (query.trim() === '') return [];
    const prepared = options.prepared as TextSearch | undefined;
    const textHits = prepared?.hits ?? this.textSearch(query, limit, context);
    const action = readBankAction(plan);
    if (action.module === 'text') return this.textCandidates(await textHits, new Set(), 0, limit);
    const members = await this.members(action, context);
    if (members.length === 0) return this.textCandidates(await textHits, new Set(), 0, limit);
    const ranked =
      action.module === 'graph'
        ? new Map<string, number>()
        : await this.rankMembers(
            this.options.rankBy === 'restriction' ? action.restriction : query,
            members,
            context,
          );
    const hits = await textHits;
    return this.merge(action, members, ranked, hits, limit);
  }

  private textSearch(query: string, limit: number, context: RetrievalContext): Promise<IndexHit[]> {
    const types = narrowingTypes(context.schema.targetTypes, context.schema);
    return searchText(context.text, [query], {
      limit,
      ...(this.options.field ? { field: this.options.field } : {}),
      ...(types ? { filter: { nodeTypes: types } } : {}),
      ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
    }).then((lists) => lists[0] ?? []);
  }

  /** The node types the ego-graph is kept to: confident planned types, else the schema's targets. */
  private allowedTypes(action: BankAction, context: RetrievalContext): Set<string> | undefined {
    const targets = context.schema.targetTypes ? new Set(context.schema.targetTypes) : undefined;
    const best = action.targetTypes[0];
    if (!best || best.score < (this.options.minTypeScore ?? Number.POSITIVE_INFINITY)) return targets;
    const share = this.options.typeShare ?? 0.5;
    const planned = action.targetTypes
      .filter((t) => t.score >= share * best.score && (!targets || targets.has(t.type)))
      .map((t) => t.type);
    return planned.length > 0 ? new Set(planned) : targets;
  }

  /** The intersection of the entities' ego-graphs (or, when it is empty, their union). */
  private async members(action: BankAction, context: RetrievalContext): Promise<Member[]> {
    const graphs = await egoGraphs(action.entities, context, this.options.egoGraph ?? {});
    const allowed = this.allowedTypes(action, context);
    const entityIds = new Set(action.entities.map((e) => e.id));
    const byId = new Map<string, { type: string; reached: Member['reached'][number][] }>();
    graphs.forEach((graph, entity) => {
      for (const [id, steps] of graph.nodes) {
        const type = steps.at(-1)!.nodeType;
        if (entityIds.has(id) || (allowed && !allowed.has(type))) continue;
        const entry = byId.get(id) ?? byId.set(id, { type, reached: [] }).get(id)!;
        entry.reached.push({ entity, steps });
      }
    });
    const all = [...byId.entries()].map(([id, entry]) => ({
      id,
      type: entry.type,
      coverage: entry.reached.length / Math.max(1, graphs.length),
      reached: entry.reached,
    }));
    const intersection = all.filter((m) => m.coverage === 1);
    return intersection.length > 0 ? intersection : all;
  }

  /** BM25 of `text` over the members' documents, in one id-filtered search. */
  private async rankMembers(
    text: string,
    members: readonly Member[],
    context: RetrievalContext,
  ): Promise<Map<string, number>> {
    const [hits = []] = await searchText(context.text, [text], {
      limit: members.length,
      filter: { ids: members.map((m) => m.id) },
      ...((this.options.memberField ?? this.options.field)
        ? { field: this.options.memberField ?? this.options.field }
        : {}),
      ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
    });
    return new Map(hits.map((hit) => [hit.id, hit.score]));
  }

  /**
   * Members with a text match (by coverage, then BM25), then the text ranking, then the members
   * without a text match (the graph module: every member, by coverage). Scores fall tier by tier.
   */
  private merge(
    action: BankAction,
    members: readonly Member[],
    ranked: ReadonlyMap<string, number>,
    hits: readonly IndexHit[],
    limit: number,
  ): Candidate[] {
    const best = Math.max(0, ...ranked.values());
    const norm = (score: number | undefined) => (score !== undefined && best > 0 ? score / best : 0);
    const order = (a: Member, b: Member) =>
      b.coverage - a.coverage ||
      (ranked.get(b.id) ?? 0) - (ranked.get(a.id) ?? 0) ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    const graphOnly = action.module === 'graph' || ranked.size === 0;
    const matched = members.filter((m) => graphOnly || ranked.has(m.id)).sort(order);
    const unmatched = graphOnly ? [] : members.filter((m) => !ranked.has(m.id)).sort(order);
    const memberIds = new Set(members.map((m) => m.id));
    const out: Candidate[] = matched.map((m) =>
      this.memberCandidate(action, m, 3 + m.coverage + norm(ranked.get(m.id)), ranked.get(m.id)),
    );
    out.push(...this.textCandidates(hits, memberIds, members.length, limit));
    out.push(...unmatched.map((m) => this.memberCandidate(action, m, m.coverage, undefined)));
    return out.slice(0, limit);
  }

  private memberCandidate(
    action: BankAction,
    member: Member,
    score: number,
    bm25: number | undefined,
  ): Candidate {
    const trajectories: Trajectory[] = member.reached.slice(0, 3).map(({ entity, steps }) => {
      const topic = action.entities[entity]!;
      const hops: TrajectoryHop[] = [
        { node: topic.id, nodeType: topic.type, via: 'anchor', textScore: topic.confidence },
        ...steps.map((step, i) => ({
          node: step.node,
          nodeType: step.nodeType,
          edgeType: step.edgeType,
          direction: step.direction,
          via: 'structure' as const,
          ...(i === steps.length - 1 && bm25 !== undefined ? { textScore: bm25 } : {}),
        })),
      ];
      return { hops };
    });
    return {
      id: member.id,
      type: member.type,
      score,
      scores: { bm25: bm25 ?? 0, egoGraph: 1, egoCoverage: member.coverage },
      trajectories,
      source: this.name,
    };
  }

  /** The text module's ranking without `exclude`; `egoSize` tells the critic how large the ego-graph was. */
  private textCandidates(
    hits: readonly IndexHit[],
    exclude: ReadonlySet<string>,
    egoSize: number,
    limit: number,
  ): Candidate[] {
    const best = Math.max(0, ...hits.map((h) => h.score));
    return hits
      .filter((hit) => !exclude.has(hit.id))
      .slice(0, limit)
      .map((hit) => ({
        id: hit.id,
        ...(hit.type === undefined ? {} : { type: hit.type }),
        // Below every ego-graph member with a text match (scores > 3), above those without (≤ 1).
        score: 1 + (best > 0 ? hit.score / best : 0),
        scores: { bm25: hit.score, egoGraph: 0, egoSize },
        trajectories: [
          {
            hops: [
              {
                node: hit.id,
                ...(hit.type === undefined ? {} : { nodeType: hit.type }),
                textScore: hit.score,
                via: 'text' as const,
              },
            ],
          },
        ],
        source: this.name,
      }));
  }
}

/** @deprecated use `BankTraverser`: the class is named after its package. */
export const RetrieverBank = BankTraverser;
/** @deprecated use `BankTraverser`. */
export type RetrieverBank = BankTraverser;
/** @deprecated use `BankTraverserOptions`. */
export type RetrieverBankOptions = BankTraverserOptions;
