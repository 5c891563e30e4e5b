import { WeftError } from '@weft/kit';
import { describeAction, readBankAction, writeBankAction } from '@weft/ego-graph';
import type { Plan, PlannerV1, PlanOptions } from '@weft/spec';
import { offlineRoute } from './offline-route.ts';
import { type RefineOptions, refineRoute } from './refine-route.ts';
import {
  bestRound,
  choiceKey,
  type RoutedPlan,
  type RouteChoice,
  type RouteRound,
  type RouteState,
  roundFault,
  routeOf,
} from './route-state.ts';

export interface HybgragPlannerOptions extends RefineOptions {
  /**
   * The planner whose anchors (linked mentions), target types and relation paths the router chooses
   * from, e.g. `LexicalPlanner` (trained: it also predicts the relations). Asked once per round with
   * no feedback, so it must be deterministic.
   */
  readonly base: PlannerV1;
  readonly name?: string;
  /**
   * The stack's `maxRounds` (default 4): the pipeline does not critique the last round, so on it the
   * router replays the round the critic faulted least (`finalRound: 'best'`, the default) rather
   * than an untested refinement (`'refine'`).
   */
  readonly maxRounds?: number;
  readonly finalRound?: 'best' | 'refine';
  /**
   * On the last round, the text module (when no round tried it) counts as a round with this fault
   * (`roundFault`, default 1.5): a neutral fallback that beats rounds the critic faulted with a wrong
   * entity, intersection or module (2 and up), not one it merely found short of an entity (1).
   * `Infinity` replays the best critiqued round whatever it was.
   */
  readonly untriedTextFault?: number;
}

/** What a round decided: the choice and why. */
export interface RouteDecision {
  readonly choice: RouteChoice;
  readonly reason: string;
  /** The base plan to write the choice into, when it differs (an LLM router adds anchors it found). */
  readonly base?: Plan;
  /** The model's answer, when a model made the decision (kept as `Plan.raw`). */
  readonly raw?: string;
}

/**
 * HybGRAG's router without an LLM, as a `PlannerV1`. Round 0 routes from the base plan
 * (`offlineRoute`); every later round reads the critic's feedback on the previous round (the
 * pipeline's `feedback` since the previous plan was made) and refines the action (`refineRoute`),
 * never repeating one it tried. The last round replays the best earlier round. Plans are ordinary
 * plans (`writeBankAction` of `@weft/ego-graph`) with the route kept beside (`RoutedPlan.route`).
 */
export class HybgragPlanner implements PlannerV1 {
  readonly specificationVersion = 'v1';
  readonly name: string;
  protected readonly options: HybgragPlannerOptions;

  constructor(options: HybgragPlannerOptions) {
    if (!options?.base || typeof options.base.doPlan !== 'function')
      throw new WeftError({
        code: 'WEFT_BAD_INPUT',
        message: 'HybgragPlanner needs { base }: the planner whose anchors and relations it routes on',
      });
    this.options = options;
    this.name = options.name ?? 'hybgrag-router';
  }

  async doPlan(options: PlanOptions): Promise<RoutedPlan> {
    const base = await this.basePlan(options);
    const previous = routeOf(options.previous);
    if (!previous) {
      const decision = await this.firstRoute(base, options);
      return routedPlan(base, decision, { round: 0, history: [], feedbackSeen: options.feedback.length });
    }
    const history: RouteRound[] = [
      ...previous.history,
      {
        round: previous.round,
        action: previous.action,
        choice: previous.choice,
        feedback: options.feedback.slice(previous.feedbackSeen),
      },
    ];
    const round = previous.round + 1;
    const state = { round, history, feedbackSeen: options.feedback.length };
    const best = bestRound(history)!;
    const tried = new Set(history.map((h) => choiceKey(h.choice)));
    const textFault = this.options.untriedTextFault ?? 1.5;
    const replay: RouteDecision =
      !tried.has('text') && textFault < roundFault(best.feedback)
        ? {
            choice: { module: 'text', entities: [] },
            reason: `every round was faulted (least: round ${best.round}, ${roundFault(best.feedback)}): the untried text module`,
          }
        : { choice: best.choice, reason: `replaying round ${best.round}, the one the critic faulted least` };
    if (round >= (this.options.maxRounds ?? 4) - 1 && (this.options.finalRound ?? 'best') === 'best')
      return routedPlan(base, { ...replay, reason: `last round: ${replay.reason}` }, state);
    const refined = await this.refine(base, history, tried, options);
    return routedPlan(base, refined ?? { ...replay, reason: `nothing left to try: ${replay.reason}` }, state);
  }

  /**
   * The base planner's plan for the query, the same every round, with the anchors an earlier round
   * added after it (an LLM router's entities that linking missed), so that choices keep their indices.
   */
  protected async basePlan(options: PlanOptions): Promise<Plan> {
    const plan = await this.options.base.doPlan({
      query: options.query,
      feedback: [],
      context: options.context,
    });
    const added = options.previous?.anchors.slice(plan.anchors.length) ?? [];
    return added.length > 0 && routeOf(options.previous)
      ? { ...plan, anchors: [...plan.anchors, ...added] }
      : plan;
  }

  /** Round 0: the offline route. The LLM router overrides it. */
  protected async firstRoute(base: Plan, options: PlanOptions): Promise<RouteDecision> {
    return offlineRoute(base, options.context.schema, this.options);
  }

  /**
   * A later round: the offline refinement of the last round's action after its feedback (`history`
   * holds every earlier round, oldest first). The LLM router overrides it.
   */
  protected async refine(
    base: Plan,
    history: readonly RouteRound[],
    tried: ReadonlySet<string>,
    options: PlanOptions,
  ): Promise<RouteDecision | undefined> {
    const last = history.at(-1)!;
    return refineRoute(base, options.context.schema, last.choice, last.feedback, tried, this.options);
  }
}

/** The base plan with the decision written in and the route kept beside. */
export function routedPlan(
  base: Plan,
  decision: RouteDecision,
  state: Pick<RouteState, 'round' | 'history' | 'feedbackSeen'>,
): RoutedPlan {
  const plan = writeBankAction(decision.base ?? base, {
    module: decision.choice.module,
    entities: decision.choice.entities.map((e) => ({
      anchor: e.anchor,
      candidate: e.candidate,
      paths: e.paths,
      ...(e.confidences ? { confidences: e.confidences } : {}),
    })),
  });
  return {
    ...plan,
    ...(decision.raw === undefined ? {} : { raw: decision.raw }),
    route: {
      ...state,
      choice: decision.choice,
      action: describeAction(readBankAction(plan)),
      reason: decision.reason,
    },
  };
}

/** @deprecated use `HybgragPlanner`: the class is named after its package. */
export const HybgragRouter = HybgragPlanner;
/** @deprecated use `HybgragPlanner`. */
export type HybgragRouter = HybgragPlanner;
/** @deprecated use `HybgragPlannerOptions`. */
export type HybgragRouterOptions = HybgragPlannerOptions;
