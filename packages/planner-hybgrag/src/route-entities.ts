import { type RelationStep, reachesFrom, schemaRelations } from '@weft/ego-graph';
import type { Plan, SkbSchema } from '@weft/spec';
import type { RouteEntity } from './route-state.ts';

export interface EntityOptions {
  /**
   * Planned relations below this calibrated confidence are not used (default 0.35, chosen on the
   * val splits of WordNet's hybrid and wn18rr sets among 0.1–0.7): ego-graphs along less likely
   * relations lost to the text module far more often than they won.
   */
  readonly minRelationConfidence?: number;
  /** Most relation paths per entity from the plan (default 3). */
  readonly maxRelations?: number;
}

/** The plan's relation paths from `anchor`, most confident first, as relation steps. */
export function plannedPaths(
  base: Plan,
  anchor: number,
  options: EntityOptions = {},
): { readonly steps: RelationStep[]; readonly confidence: number | undefined }[] {
  const floor = options.minRelationConfidence ?? 0.35;
  return base.paths
    .filter((p) => p.anchor === anchor && p.hops.length > 0 && (p.confidence ?? p.score) >= floor)
    .sort((a, b) => (b.confidence ?? b.score) - (a.confidence ?? a.score))
    .slice(0, options.maxRelations ?? 3)
    .map((p) => ({
      steps: p.hops.map((h) => ({ edgeType: h.edgeType, direction: h.direction })),
      confidence: p.confidence,
    }));
}

/** Whether the base planner planned relations at all (a trained planner does; an untrained one links only). */
export function plansRelations(base: Plan): boolean {
  return base.paths.some((p) => p.anchor !== undefined);
}

/**
 * A topic entity from `anchor`'s candidate `candidate`: the planned relation paths its type can
 * follow (by the schema), or — `widened`, or when nothing was planned — every relation its type can
 * follow, one step each. Undefined when the candidate does not exist or no path is left.
 */
export function routeEntity(
  base: Plan,
  schema: SkbSchema,
  anchor: number,
  candidate: number,
  widened: boolean,
  options: EntityOptions = {},
): RouteEntity | undefined {
  const node = base.anchors[anchor]?.candidates[candidate];
  if (!node) return undefined;
  // A planner that plans relations and planned none (sure enough) from this anchor says that the
  // answers do not hang off it; only an untrained one, which plans none at all, leaves it to the schema.
  const trained = plansRelations(base);
  const planned = trained ? plannedPaths(base, anchor, options) : [];
  if (trained && planned.length === 0 && !widened) return undefined;
  const useAll = widened || planned.length === 0;
  if (useAll) {
    const paths = schemaRelations(schema, node.type).map((step) => [step]);
    return paths.length === 0 ? undefined : { anchor, candidate, paths, widened: true };
  }
  const reachable = planned.filter((p) => reachesFrom(schema, node.type, p.steps[0]!));
  if (reachable.length === 0) return undefined;
  return {
    anchor,
    candidate,
    paths: reachable.map((p) => p.steps),
    confidences: reachable.map((p) => p.confidence),
    widened: false,
  };
}

/**
 * The first candidate of `anchor` from `from` on whose type can follow a planned relation (any
 * relation when none was planned), as a topic entity.
 */
export function firstReachableEntity(
  base: Plan,
  schema: SkbSchema,
  anchor: number,
  from: number,
  options: EntityOptions = {},
): RouteEntity | undefined {
  const candidates = base.anchors[anchor]?.candidates ?? [];
  for (let c = from; c < candidates.length; c++) {
    const entity = routeEntity(base, schema, anchor, c, false, options);
    if (entity) return entity;
  }
  return undefined;
}

/** Anchors by confidence, best first, skipping mentions inside (or around) a better one. */
export function distinctAnchors(base: Plan, minConfidence: number): number[] {
  const order = base.anchors
    .map((anchor, index) => ({ anchor, index }))
    .filter(({ anchor }) => anchor.confidence >= minConfidence && anchor.candidates.length > 0)
    .sort((a, b) => b.anchor.confidence - a.anchor.confidence || a.index - b.index);
  const kept: { text: string; index: number }[] = [];
  for (const { anchor, index } of order) {
    const text = anchor.mention.toLowerCase();
    if (kept.some((k) => k.text.includes(text) || text.includes(k.text))) continue;
    kept.push({ text, index });
  }
  return kept.map((k) => k.index);
}

/** The entity's confidence: its anchor's times its node's link score. */
export function entityConfidence(base: Plan, entity: Pick<RouteEntity, 'anchor' | 'candidate'>): number {
  const anchor = base.anchors[entity.anchor];
  return (anchor?.confidence ?? 0) * (anchor?.candidates[entity.candidate]?.score ?? 0);
}
