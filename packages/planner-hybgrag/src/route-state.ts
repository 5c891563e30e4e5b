import type { BankModule, RelationStep } from '@weft/ego-graph';
import { relationLabel } from '@weft/kit';
import type { CriticFeedback, CriticFeedbackKind, Plan } from '@weft/spec';

/** A topic entity as the router chose it: an anchor, one of its candidates, relation paths. */
export interface RouteEntity {
  /** Index into the base plan's anchors. */
  readonly anchor: number;
  /** Index into that anchor's candidates. */
  readonly candidate: number;
  readonly paths: readonly (readonly RelationStep[])[];
  /** The base planner's confidence in each path (same order), where it gave one. */
  readonly confidences?: readonly (number | undefined)[];
  /** The paths are every relation the schema allows from the node's type, not the planned ones. */
  readonly widened: boolean;
}

/** The router's action for one round, before it is written into the plan. */
export interface RouteChoice {
  readonly module: BankModule;
  readonly entities: readonly RouteEntity[];
}

/** One earlier round: what was tried and what the critic said about it. */
export interface RouteRound {
  readonly round: number;
  /** `describeAction` of the round's action. */
  readonly action: string;
  readonly choice: RouteChoice;
  /** The critic's feedback on the round. */
  readonly feedback: readonly CriticFeedback[];
}

/**
 * What the router keeps in its plan (`RoutedPlan.route`) so that the next round can refine it: the
 * pipeline hands the previous plan back to the planner, so nothing of a retrieval stays on the
 * router. It also makes the refinement path readable in the trace (`trace.plan.route`).
 */
export interface RouteState {
  /** This plan's round, from 0. */
  readonly round: number;
  readonly choice: RouteChoice;
  /** `describeAction` of the action. */
  readonly action: string;
  /** Why the router chose it, e.g. `refined after incorrect-entity: next namesake of "Fire"`. */
  readonly reason: string;
  /** Earlier rounds, oldest first, with the critic's feedback on each. */
  readonly history: readonly RouteRound[];
  /** How many feedback items existed when this plan was made: later ones are about this round. */
  readonly feedbackSeen: number;
}

/** A plan written by a HybGRAG router: a `Plan` (any traverser can run it) plus its route. */
export interface RoutedPlan extends Plan {
  readonly route: RouteState;
}

/** The route of a plan a HybGRAG router wrote; undefined for any other plan. */
export function routeOf(plan: Plan | undefined): RouteState | undefined {
  const route = (plan as Partial<RoutedPlan> | undefined)?.route;
  return route && typeof route === 'object' && Array.isArray(route.history) ? route : undefined;
}

/**
 * How much a kind of feedback says a round went wrong: no entity or no intersection left the bank
 * with nothing to work on; a wrong entity, intersection or module gave it the wrong thing; a missing
 * entity left a result that is merely too broad.
 */
export const feedbackSeverity: Readonly<Record<CriticFeedbackKind, number>> = {
  'no-entity': 3,
  'no-intersection': 3,
  'incorrect-entity': 2,
  'incorrect-intersection': 2,
  'wrong-module': 2,
  'missing-entity': 1,
};

/** The sum of a round's feedback severities: 0 for a round the critic had nothing against. */
export function roundFault(feedback: readonly CriticFeedback[]): number {
  return feedback.reduce((sum, f) => sum + (feedbackSeverity[f.kind] ?? 2), 0);
}

/** The earlier round the critic faulted least (the earliest among equals). */
export function bestRound(history: readonly RouteRound[]): RouteRound | undefined {
  let best: RouteRound | undefined;
  for (const round of history)
    if (!best || roundFault(round.feedback) < roundFault(best.feedback)) best = round;
  return best;
}

/** A key that is the same for two choices that make the bank do the same thing. */
export function choiceKey(choice: RouteChoice): string {
  if (choice.module === 'text') return 'text';
  const entities = choice.entities
    .map(
      (e) =>
        `${e.anchor}.${e.candidate}:${e.paths
          .map((steps) => steps.map((s) => relationLabel(s.edgeType, s.direction, 'key')).join('/'))
          .sort()
          .join(',')}`,
    )
    .sort();
  return `${choice.module} ${entities.join(' & ')}`;
}
