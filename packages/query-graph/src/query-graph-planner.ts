import type { Anchor, Plan, PlannerV1, PlanOptions, PlanPath } from '@weft/spec';
import { checkModelPlan } from './check-model-plan.ts';
import { executeModelPlan } from './execute-model-plan.ts';
import { exclusions } from './exclusions.ts';
import { type QueryGraph, type QueryGraphOptions, searchQueryGraphs } from './query-graphs.ts';

export interface QueryGraphPlannerOptions {
  /** The planner whose plan the readings join (its anchors are where they start). */
  readonly base: PlannerV1;
  /**
   * A second planner whose anchors the readings start from too, for a base that links differently
   * (MoR's and FocusedRetriever's schema planner link names only): its anchors that the base lacks
   * are added to the plan.
   */
  readonly linker?: PlannerV1;
  readonly name?: string;
  readonly search?: QueryGraphOptions;
  /**
   * Which readings join the plan's paths: `all` (default), or only the `executed` ones, for a base
   * whose traversers follow every planned path (MoR, HybGRAG's router, MixRAG's relation expert):
   * there the unconfirmed readings are paths the question did not ask for.
   */
  readonly readings?: 'all' | 'executed';
  /**
   * Leave a plan a language model wrote (`Plan.raw`) as it is, once `checkModelPlan` trusts it: the
   * readings are the offline planning step, for the plans a planner falls back to without a model.
   * A model's plan that does not fit the question or the graph is replaced by the base's offline
   * plan (the base asked again without the model), read as any offline plan is.
   */
  readonly keepModelPlans?: boolean;
  /**
   * With `keepModelPlans`, also execute a trusted model plan (`executeModelPlan`): the nodes its paths
   * reach from every anchor become its paths' `endpoints`, ranked by its restriction, so that a stack
   * whose traversal mixes structure and text (MoR) answers a right plan as FocusedRetriever grounds
   * it, and keeps its own ranking where the plan's paths reach nothing or disagree. The question's
   * exclusion ("(not documentation)") joins the plan, as for an offline plan. `field`: the text field
   * the endpoints are ranked by (the stack's traversal's, e.g. `combined`).
   */
  readonly executeModelPlans?: boolean | { readonly field?: string };
}

/**
 * Reads the question as query graphs (`searchQueryGraphs`) on top of another planner's plan: each
 * reading becomes a path from one node (`PlanPath.node`) with its probability as `confidence`, and
 * the readings the question confirms (`isExecuted`) carry their `endpoints`: the answer candidates
 * a traverser that honours the plan ranks first (`QueryGraphTraverser`, or the field traverser's
 * `queryGraph` score).
 */
export class QueryGraphPlanner implements PlannerV1 {
  readonly specificationVersion = 'v1';
  readonly name: string;
  private readonly options: QueryGraphPlannerOptions;

  constructor(options: QueryGraphPlannerOptions) {
    this.options = options;
    this.name = options.name ?? options.base.name;
  }

  async doPlan(options: PlanOptions): Promise<Plan> {
    const [planned, linked] = await Promise.all([
      this.options.base.doPlan(options),
      this.options.linker?.doPlan(options),
    ]);
    let plan = planned;
    if (this.options.keepModelPlans && plan.raw !== undefined) {
      const check = await checkModelPlan(plan, options.context);
      if (check.trusted) {
        if (!this.options.executeModelPlans) return plan;
        // The endpoints are ranked by what the answers should say, not what they should not.
        const { excluded } = exclusions(options.query);
        const wanted = exclusions(plan.restriction?.trim() || options.query).kept;
        const execution = this.options.executeModelPlans;
        const field = typeof execution === 'object' ? execution.field : undefined;
        const executed = await executeModelPlan(plan, wanted || options.query, options.context, {
          ...(field ? { field } : {}),
        });
        return excluded ? { ...executed, exclusion: excluded } : executed;
      }
      options.context.warn?.(
        `the model's plan was not trusted (${check.problems.join('; ')}); the offline plan is used`,
      );
      const { languageModel: _model, warn: _warn, ...offline } = options.context;
      plan = await this.options.base.doPlan({ ...options, context: offline });
    }
    // The readings start from the linker's anchors (each with all its senses) and from the base's
    // mentions the linker lacks.
    const base = plan.anchors;
    const mention = (anchor: Anchor) => anchor.mention.toLowerCase();
    const fromLinker = linked?.anchors ?? [];
    const linkedMentions = new Set(fromLinker.map(mention));
    const searched = [...fromLinker, ...base.filter((a) => !linkedMentions.has(mention(a)))];
    // The readings' endpoints are matched against what the answers should say, not what they should not.
    const { kept, excluded } = exclusions(options.query);
    const reading = await searchQueryGraphs(kept, searched, options.context, this.options.search);
    const executed = executedReadings(reading.graphs);
    const joining =
      this.options.readings === 'executed' ? reading.graphs.filter((g) => executed.has(g)) : reading.graphs;
    // A reading's anchor is the base's anchor of its mention; a mention only the linker read joins
    // the plan's anchors when a joining reading starts from it (the base's traversers see the
    // base's anchors otherwise).
    const anchors = [...base];
    const index = new Map<number, number>();
    for (const graph of joining) {
      if (index.has(graph.anchor)) continue;
      const anchor = searched[graph.anchor]!;
      const same = base.findIndex((a) => mention(a) === mention(anchor));
      index.set(graph.anchor, same >= 0 ? same : anchors.push(anchor) - 1);
    }
    return {
      ...plan,
      anchors,
      ...(excluded ? { exclusion: excluded } : {}),
      paths: [
        ...plan.paths,
        ...joining.map((graph) =>
          readingPath({ ...graph, anchor: index.get(graph.anchor)! }, executed.has(graph)),
        ),
      ],
    };
  }
}

function readingPath(graph: QueryGraph, executed: boolean): PlanPath {
  return {
    anchor: graph.anchor,
    node: graph.node,
    hops: [{ edgeType: graph.edgeType, direction: graph.direction, nodeTypes: [graph.answerType] }],
    score: graph.score,
    confidence: graph.confidence,
    ...(executed ? { endpoints: graph.endpoints.map((e) => e.id) } : {}),
  };
}

/**
 * The readings whose endpoints become the answer candidates: those whose relation the question's
 * words name and whose answers it barely describes ("a part of the eye", "the opposite of hot": at
 * most `maxConstraintWords` words left to match). A question that describes its answer at length is
 * ranked by that text and by adjacency to its anchors, which already use the relations: there,
 * executing one-hop readings pushed the neighbours of two-hop questions' middle nodes up.
 *
 * Also executing a first reading more probable than all others and the text-only one together won on
 * Debian hybrid (the offline seeds +3 to +9 of 30 questions) and lost on text-only questions (1 to 3
 * of 72 per seed) and on WordNet hybrid; the default stack lost 3 questions over three KBs with it.
 */
export function executedReadings(graphs: readonly QueryGraph[]): Set<QueryGraph> {
  return new Set(
    graphs.filter(
      (graph) =>
        graph.evidence.relationWords > 0 &&
        graph.constraint.split(' ').filter((w) => w !== '').length <= maxConstraintWords,
    ),
  );
}

/**
 * Most words a reading's textual constraint may hold for its endpoints to be executed (see
 * `executedReadings`). Untrained default stack, Hit@1 with 2 against 4 (train / val): WordNet hybrid
 * 58.2 / 55.8 against 55.1 / 55.8, Pokémon hybrid 45.8 / 63.2 against 43.8 / 63.2, Pokémon described
 * 21.3 / 15.8 against 23.4 / 15.8, Debian hybrid 75 / 90 against 80 / 90, Debian described 38.3 /
 * 39.1 against 36.2 / 39.1; everyday WordNet val 63.3 with either.
 */
const maxConstraintWords = 2;
