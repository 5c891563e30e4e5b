import type { Plan, SkbSchema } from '@weft/spec';
import { distinctAnchors, type EntityOptions, firstReachableEntity } from './route-entities.ts';
import type { RouteChoice, RouteEntity } from './route-state.ts';

export interface OfflineRouteOptions extends EntityOptions {
  /** A mention must be at least this sure to name a node to become a topic entity (default 0.5). */
  readonly minAnchorConfidence?: number;
  /**
   * The base plan's confidence that the answers are related to a mentioned node (a trained lexical
   * planner's 1 − P(no relation)) must reach this for the hybrid module (default 0.5).
   */
  readonly minPlanConfidence?: number;
  /** Most topic entities, intersected (default 2). */
  readonly maxEntities?: number;
  /** The module for graph questions: `graph` when the schema's nodes have no documents (default `hybrid`). */
  readonly structuralModule?: 'hybrid' | 'graph';
}

/**
 * The offline router's first action, from a base plan (the lexical planner's): the hybrid module
 * when the plan is confident that the answers hang off a mentioned node and at least one confident
 * mention links to a node whose type can follow a planned relation; those mentions (the most
 * confident `maxEntities`, not nested in each other) are the topic entities, each with its planned
 * relations (every relation its type has when the planner planned none). Otherwise the text module.
 */
export function offlineRoute(
  base: Plan,
  schema: SkbSchema,
  options: OfflineRouteOptions = {},
): { readonly choice: RouteChoice; readonly reason: string } {
  const minPlan = options.minPlanConfidence ?? 0.5;
  const anchors = distinctAnchors(base, options.minAnchorConfidence ?? 0.5);
  if (anchors.length === 0)
    return { choice: { module: 'text', entities: [] }, reason: 'no confident mention: text module' };
  // A trained base planner's confidence is 1 − P(no relation); an untrained one's, its surest
  // mention's: either way, below the bar the answers are not expected next to a mentioned node.
  if (base.confidence < minPlan)
    return {
      choice: { module: 'text', entities: [] },
      reason: `the answers look unrelated to the mentions (plan confidence ${base.confidence.toFixed(2)} < ${minPlan}): text module`,
    };
  const entities: RouteEntity[] = [];
  for (const anchor of anchors) {
    if (entities.length >= (options.maxEntities ?? 2)) break;
    const entity = firstReachableEntity(base, schema, anchor, 0, options);
    if (entity) entities.push(entity);
  }
  if (entities.length === 0)
    return {
      choice: { module: 'text', entities: [] },
      reason: 'no confident mention links to a node the planned relations start from: text module',
    };
  const module = options.structuralModule ?? 'hybrid';
  return {
    choice: { module, entities },
    reason: `${entities.length} confident mention${entities.length === 1 ? '' : 's'} with planned relations: ${module} module`,
  };
}
