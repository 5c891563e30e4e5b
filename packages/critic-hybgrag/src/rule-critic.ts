import { narrowingTypes, relationLabel, searchText } from '@weft/kit';
import {
  type BankAction,
  describeAction,
  type EgoGraphOptions,
  egoGraphs,
  intersectEgoGraphs,
  reachesFrom,
  readBankAction,
} from '@weft/ego-graph';
import type {
  Candidate,
  CriticFeedback,
  CriticV1,
  CriticVerdict,
  CritiqueOptions,
  RetrievalContext,
} from '@weft/spec';

/** The rules of `RuleCritic`, each of which can be switched off. */
export type CriticRule =
  /** an entity whose ego-graph along its relations is empty → `incorrect-entity` */
  | 'empty-ego-graph'
  /** several non-empty ego-graphs that share no node → `no-intersection` */
  | 'empty-intersection'
  /** an entity whose type none of its relations starts from → `incorrect-entity` */
  | 'unreachable-type'
  /** top results outside the confidently planned target types → `incorrect-intersection` / `wrong-module` */
  | 'off-type-results'
  /** a text-module top result with no edge to a confidently named node → `missing-entity` */
  | 'ignored-anchor'
  /**
   * the ego-graph's best document matches the question much worse than the best document of the
   * target types anywhere (`minEgoMatch`) → `wrong-module`: the ego-graph holds the wrong nodes
   */
  | 'weak-ego-match'
  /** paths planned from mentions that are linked to no node → `no-entity` */
  | 'no-entity';

export interface RuleCriticOptions {
  readonly name?: string;
  /** Rules to switch off, e.g. `{ 'ignored-anchor': false }` (default: all on). */
  readonly rules?: Partial<Record<CriticRule, boolean>>;
  /** An anchor at least this sure counts as confidently named, for `ignored-anchor` (default 0.7). */
  readonly minAnchorConfidence?: number;
  /** A planned target type at least this sure counts as asked for, for `off-type-results` (default 0.5). */
  readonly minTypeScore?: number;
  /** How many top results `off-type-results` looks at (default 3); all of them must be off-type. */
  readonly topK?: number;
  /**
   * `weak-ego-match`: the best BM25 among the ego-graph's members (`scores.bm25` of candidates with
   * `scores.egoGraph` 1, as `BankTraverser` writes them) must reach this share of the best BM25 over
   * the target types (default 0.65).
   */
  readonly minEgoMatch?: number;
  /**
   * `weak-ego-match` leaves alone an entity whose relation the plan is at least this sure of
   * (`TopicEntity.relationConfidence`, default 0.9): answers of a well-known relation need not
   * share words with the question (WordNet's wn18rr queries describe the anchor, not the answer).
   */
  readonly trustedRelation?: number;
  /** Candidates of a named anchor checked for an edge to the top result (default 3). */
  readonly nodesPerAnchor?: number;
  /** As the bank's (`BankTraverserOptions.egoGraph`), so that both see the same ego-graphs. */
  readonly egoGraph?: EgoGraphOptions;
}

/** A verdict with the action it judged, so that the trace shows each round's action beside its verdict. */
export type HybgragVerdict = CriticVerdict & { readonly action: string };

/**
 * HybGRAG's critic without an LLM: checks a round's action and results against the graph and
 * returns the corrective feedback the router acts on, or accepts. Rules (`CriticRule`): an empty
 * ego-graph, an empty intersection, an entity of a type none of its relations starts from, top
 * results outside the confidently planned target types, a text-module result that has no edge to a
 * node the question names confidently, an ego-graph whose documents match the question much worse
 * than the rest of the KB (HybGRAG's validator without an LLM), paths from mentions linked to
 * nothing. Each message starts with the round and its action, so `--explain` reads as the
 * refinement path.
 */
export class RuleCritic implements CriticV1 {
  readonly specificationVersion = 'v1';
  readonly name: string;
  private readonly options: RuleCriticOptions;

  constructor(options: RuleCriticOptions = {}) {
    this.name = options.name ?? 'hybgrag-rules';
    this.options = options;
  }

  private on(rule: CriticRule): boolean {
    return this.options.rules?.[rule] !== false;
  }

  async doCritique({ query, plan, candidates, round, context }: CritiqueOptions): Promise<HybgragVerdict> {
    const action = readBankAction(plan);
    const described = describeAction(action);
    const prefix = `round ${round} (${described})`;
    // Paths that start at anchors without a linked node: the graph was meant, nothing to start from.
    const meantGraph = plan.paths.some((p) => p.anchor !== undefined);
    const feedback =
      action.module === 'text'
        ? meantGraph && action.entities.length === 0 && this.on('no-entity')
          ? [{ kind: 'no-entity' as const, message: 'the planned paths start at mentions linked to no node' }]
          : await this.textFeedback(action, plan.anchors, candidates, context)
        : await this.structuralFeedback(query, action, candidates, context);
    if (feedback.length === 0) return { accept: true, action: described };
    return {
      accept: false,
      feedback: feedback.map((f) => ({ ...f, message: `${prefix}: ${f.message}` })),
      action: described,
    };
  }

  /** The asked-for types when the plan is sure of them (`minTypeScore`). */
  private askedTypes(action: BankAction): Set<string> | undefined {
    const best = action.targetTypes[0];
    const floor = this.options.minTypeScore ?? 0.5;
    if (!best || best.score < floor) return undefined;
    return new Set(action.targetTypes.filter((t) => t.score >= 0.5 * best.score).map((t) => t.type));
  }

  private offType(action: BankAction, candidates: readonly Candidate[]): string | undefined {
    const asked = this.askedTypes(action);
    const top = candidates.slice(0, this.options.topK ?? 3);
    if (!asked || top.length === 0 || top.some((c) => c.type === undefined || asked.has(c.type)))
      return undefined;
    return `the top results are ${[...new Set(top.map((c) => c.type))].join(', ')}, not the asked-for ${[...asked].join(' or ')}`;
  }

  private async structuralFeedback(
    query: string,
    action: BankAction,
    candidates: readonly Candidate[],
    context: RetrievalContext,
  ): Promise<CriticFeedback[]> {
    const out: CriticFeedback[] = [];
    if (this.on('unreachable-type')) {
      for (const entity of action.entities) {
        const reachable = entity.paths.some((steps) => reachesFrom(context.schema, entity.type, steps[0]!));
        if (!reachable)
          out.push({
            kind: 'incorrect-entity',
            entity: entity.id,
            message: `"${entity.mention}" is linked to ${entity.id}, a ${entity.type}, which none of its relations (${relations(entity)}) starts from`,
          });
      }
    }
    const graphs = await egoGraphs(action.entities, context, this.options.egoGraph ?? {});
    const empty = graphs.filter((g) => g.nodes.size === 0);
    if (this.on('empty-ego-graph'))
      for (const graph of empty) {
        if (out.some((f) => f.entity === graph.entity.id)) continue;
        out.push({
          kind: 'incorrect-entity',
          entity: graph.entity.id,
          message: `the ego-graph of "${graph.entity.mention}" (${graph.entity.id}) along ${relations(graph.entity)} is empty`,
        });
      }
    if (
      this.on('empty-intersection') &&
      graphs.length > 1 &&
      empty.length === 0 &&
      intersectEgoGraphs(graphs).size === 0
    )
      out.push({
        kind: 'no-intersection',
        message: `the ego-graphs of ${graphs.map((g) => `"${g.entity.mention}" (${g.nodes.size} nodes)`).join(' and ')} share no node`,
      });
    if (out.length === 0 && this.on('off-type-results')) {
      const off = this.offType(action, candidates);
      if (off)
        out.push({ kind: 'incorrect-intersection', message: `${off}: the ego-graph holds none of them` });
    }
    const trusted = this.options.trustedRelation ?? 0.9;
    if (
      out.length === 0 &&
      this.on('weak-ego-match') &&
      !action.entities.every((e) => (e.relationConfidence ?? 0) >= trusted)
    ) {
      const weak = await this.weakMatch(
        query,
        new Set(action.entities.map((e) => e.id)),
        candidates,
        context,
      );
      if (weak) out.push({ kind: 'wrong-module', message: weak });
    }
    return out;
  }

  /** Says how much worse the ego-graph's best document matches than the best one anywhere, if it is. */
  private async weakMatch(
    query: string,
    entities: ReadonlySet<string>,
    candidates: readonly Candidate[],
    context: RetrievalContext,
  ): Promise<string | undefined> {
    const members = candidates.filter((c) => c.scores.egoGraph === 1);
    if (members.length === 0) return undefined;
    const inGraph = Math.max(0, ...members.map((c) => c.scores.bm25 ?? 0));
    const types = narrowingTypes(context.schema.targetTypes, context.schema);
    // The topic entities' own documents often repeat the question's words ("the noun 'militia'
    // (civilians trained as soldiers)"): they are where the graph starts, not rival answers.
    const [hits = []] = await searchText(context.text, [query], {
      limit: entities.size + 1,
      ...(types ? { filter: { nodeTypes: types } } : {}),
      ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
    });
    const best = hits.find((hit) => !entities.has(hit.id));
    const anywhere = best?.score ?? 0;
    const floor = this.options.minEgoMatch ?? 0.65;
    if (!best || anywhere <= 0 || inGraph >= floor * anywhere) return undefined;
    return `the ego-graph's best document matches the question at ${(inGraph / anywhere).toFixed(2)} of the best document elsewhere (${best.id}): the graph part picked the wrong nodes`;
  }

  private async textFeedback(
    action: BankAction,
    anchors: CritiqueOptions['plan']['anchors'],
    candidates: readonly Candidate[],
    context: RetrievalContext,
  ): Promise<CriticFeedback[]> {
    const floor = this.options.minAnchorConfidence ?? 0.7;
    const confident = anchors.filter((a) => a.confidence >= floor && a.candidates.length > 0);
    if (confident.length === 0) return [];
    const out: CriticFeedback[] = [];
    if (this.on('off-type-results')) {
      const off = this.offType(action, candidates);
      if (off)
        out.push({
          kind: 'wrong-module',
          message: `${off}, while the question names "${confident[0]!.mention}"`,
        });
    }
    const top = candidates[0];
    if (out.length === 0 && top && this.on('ignored-anchor')) {
      const perAnchor = this.options.nodesPerAnchor ?? 3;
      const named = new Map<string, string>();
      for (const anchor of confident)
        for (const node of anchor.candidates.slice(0, perAnchor)) named.set(node.id, anchor.mention);
      if (!named.has(top.id)) {
        const neighbours = await context.graph.doNeighbors({
          seeds: [top.id],
          direction: 'both',
          ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
        });
        if (!neighbours.some((n) => named.has(n.node))) {
          const mentions = [...new Set(named.values())].map((m) => `"${m}"`).join(', ');
          // The text module left out an entity the question names: a missing topic entity.
          out.push({
            kind: 'missing-entity',
            entity: confident[0]!.candidates[0]!.id,
            message: `the top result ${top.id} has no edge to ${mentions}, which the question names confidently`,
          });
        }
      }
    }
    return out;
  }
}

function relations(entity: BankAction['entities'][number]): string {
  return entity.paths
    .map((steps) => steps.map((s) => relationLabel(s.edgeType, s.direction, 'plain')).join(' then '))
    .join(', ');
}
