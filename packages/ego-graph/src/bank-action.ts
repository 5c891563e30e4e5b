import { type Relation, relationLabel } from '@weft/kit';
import type { Anchor, Plan, PlanPath } from '@weft/spec';

/**
 * HybGRAG's retriever modules: `text` searches the documents of the target types; `hybrid` takes the
 * ego-graphs of the topic entities along the chosen relations, intersects them and ranks the
 * documents of what remains; `graph` does the same without documents (the ego-graph is the answer).
 */
export type BankModule = 'text' | 'hybrid' | 'graph';

/**
 * One step of a relation path from a topic entity, e.g. `learns` followed `out` (its direction seen
 * from the previous node of the path: the entity, on the first step).
 */
export type RelationStep = Relation;

/** A topic entity of an action: one linked node and the relation paths that make its ego-graph. */
export interface TopicEntity {
  /** Index into `Plan.anchors`: the mention the entity was linked from. */
  readonly anchor: number;
  readonly mention: string;
  readonly id: string;
  readonly type: string;
  /** The anchor's confidence times the node's link score, in [0, 1]. */
  readonly confidence: number;
  /** Relation paths of one or two steps; the entity's ego-graph is the union of what they reach. */
  readonly paths: readonly (readonly RelationStep[])[];
  /**
   * The planner's calibrated confidence in the entity's surest relation path, in [0, 1], when it
   * gave one (`PlanPath.confidence`): how sure the plan is that the answers lie along it.
   */
  readonly relationConfidence?: number;
}

/** What the retriever bank is asked to do for one round. */
export interface BankAction {
  readonly module: BankModule;
  /** Empty for the text module; intersected when there are several. */
  readonly entities: readonly TopicEntity[];
  /** What documents are ranked by: the plan's restriction (never empty for `text` and `hybrid`). */
  readonly restriction: string;
  /** The plan's target types, best first (empty = the schema's). */
  readonly targetTypes: readonly { readonly type: string; readonly score: number }[];
}

/** Longest relation path an action may hold: HybGRAG's ego-graphs have a radius of at most 2. */
export const maxRadius = 2;

/**
 * Reads the action a plan encodes, so that any planner's plan can drive the bank:
 *
 * - each path that starts at an anchor (`PlanPath.anchor`) is a relation path of that anchor's first
 *   candidate node, the topic entity (paths longer than `maxRadius` are cut);
 * - no such path: the text module;
 * - paths and an empty `restriction`: the graph module (nothing to rank documents by);
 * - otherwise the hybrid module.
 */
export function readBankAction(plan: Plan): BankAction {
  const byAnchor = new Map<number, { paths: RelationStep[][]; confidence?: number }>();
  for (const path of plan.paths) {
    if (path.anchor === undefined || path.hops.length === 0) continue;
    const anchor = plan.anchors[path.anchor];
    if (!anchor?.candidates[0]) continue;
    const steps = path.hops
      .slice(0, maxRadius)
      .map((hop) => ({ edgeType: hop.edgeType, direction: hop.direction }));
    const entry = byAnchor.get(path.anchor) ?? byAnchor.set(path.anchor, { paths: [] }).get(path.anchor)!;
    if (!entry.paths.some((known) => samePath(known, steps))) entry.paths.push(steps);
    if (path.confidence !== undefined) entry.confidence = Math.max(entry.confidence ?? 0, path.confidence);
  }
  const entities: TopicEntity[] = [...byAnchor.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([index, { paths, confidence }]) => {
      const anchor = plan.anchors[index]!;
      const node = anchor.candidates[0]!;
      return {
        anchor: index,
        mention: anchor.mention,
        id: node.id,
        type: node.type,
        confidence: anchor.confidence * node.score,
        paths,
        ...(confidence === undefined ? {} : { relationConfidence: confidence }),
      };
    });
  const module: BankModule =
    entities.length === 0 ? 'text' : plan.restriction.trim() === '' ? 'graph' : 'hybrid';
  return {
    module,
    entities,
    restriction: plan.restriction.trim() === '' ? plan.query : plan.restriction,
    targetTypes: plan.targetTypes,
  };
}

function samePath(a: readonly RelationStep[], b: readonly RelationStep[]): boolean {
  return (
    a.length === b.length &&
    a.every((s, i) => s.edgeType === b[i]!.edgeType && s.direction === b[i]!.direction)
  );
}

/** What the router chose for one topic entity: the anchor, which of its candidates, which paths. */
export interface EntityChoice {
  readonly anchor: number;
  /** Index into the anchor's `candidates` (default 0). */
  readonly candidate?: number;
  readonly paths: readonly (readonly RelationStep[])[];
  /** The planner's confidence in each path (same order), kept as `PlanPath.confidence`. */
  readonly confidences?: readonly (number | undefined)[];
}

/** A module and the entities of an action, before it is written into a plan. */
export interface ActionChoice {
  readonly module: BankModule;
  readonly entities: readonly EntityChoice[];
}

/**
 * Writes an action into a plan (the inverse of `readBankAction`): the chosen candidate of each
 * entity's anchor moves to the front of its candidates, one path per relation path, and for the
 * graph module an empty restriction. Anchors, target types and confidence are the base plan's.
 */
export function writeBankAction(base: Plan, choice: ActionChoice): Plan {
  const chosen = new Map(choice.entities.map((e) => [e.anchor, e]));
  const anchors: Anchor[] = base.anchors.map((anchor, index) => {
    const pick = chosen.get(index)?.candidate ?? 0;
    if (pick === 0 || !anchor.candidates[pick]) return anchor;
    const candidates = [anchor.candidates[pick]!, ...anchor.candidates.filter((_, i) => i !== pick)];
    return { ...anchor, candidates };
  });
  const paths: PlanPath[] =
    choice.module === 'text'
      ? []
      : choice.entities.flatMap((entity) =>
          entity.paths.flatMap((steps, i) => {
            if (steps.length === 0) return [];
            const confidence = entity.confidences?.[i];
            return [
              {
                anchor: entity.anchor,
                hops: steps
                  .slice(0, maxRadius)
                  .map((s) => ({ edgeType: s.edgeType, direction: s.direction })),
                score: 1,
                ...(confidence === undefined ? {} : { confidence }),
              },
            ];
          }),
        );
  const module = paths.length === 0 ? 'text' : choice.module;
  return {
    ...base,
    anchors,
    paths,
    // The text and hybrid modules rank documents by the restriction, which must not be empty.
    restriction: module === 'graph' ? '' : base.restriction.trim() === '' ? base.query : base.restriction,
  };
}

const arrow = (step: RelationStep) => relationLabel(step.edgeType, step.direction);

/**
 * One line for traces and prompts, e.g. `hybrid: Charizard [pokemon:charizard] —learns→ ∩ Fire
 * [type:fire] ←has_type—`.
 */
export function describeAction(action: BankAction): string {
  if (action.module === 'text') return 'text: search the documents of the target types';
  const entities = action.entities.map((e) => {
    const paths = e.paths.map((steps) => steps.map(arrow).join(' ')).join(' | ');
    return `${e.mention} [${e.id}] ${paths}`;
  });
  return `${action.module}: ${entities.join(' ∩ ')}`;
}
