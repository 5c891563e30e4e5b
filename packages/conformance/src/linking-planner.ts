// A fixture for stages that wrap a planner (an LLM planner's offline fallback, a router's base):
// their tests need a small planner that links mentions, and depending on a sibling planner package
// for that would tie them to its training. Once here, not once per package.
import { emptyPlan } from '@weft/kit';
import { groundingAnchors, groundQuestion } from '@weft/grounding';
import type { Plan, PlannerV1 } from '@weft/spec';

/** A one-hop relation `linkingPlanner` plans from the linked mentions. */
export interface LinkingRelation {
  readonly edgeType: string;
  readonly direction: 'in' | 'out';
  /** Only from mentions whose best candidate has this type (default: every mention). */
  readonly from?: string;
  /** The hop's `nodeTypes` (default: none, any type). */
  readonly nodeTypes?: readonly string[];
  /**
   * The path's calibrated confidence, as a trained lexical planner writes it (also its score);
   * without it the path scores 1 and carries no confidence.
   */
  readonly confidence?: number;
}

export interface LinkingPlannerOptions {
  /**
   * What to plan from the mentions; relations the store's schema lacks are left out. Default: the
   * toy shop's brand ←made_by— product.
   */
  readonly relations?: readonly LinkingRelation[];
  /** The plan's confidence, which `unsure` fallbacks and routers compare (default 0.9). */
  readonly confidence?: number;
}

const brandProducts: LinkingRelation = {
  edgeType: 'made_by',
  direction: 'in',
  from: 'brand',
  nodeTypes: ['product'],
};

/**
 * Grounds the query (`@weft/grounding`, the shared grounding step) and plans, from each linked
 * mention, the relations `relations` names. `calls` counts `doPlan` calls, so that a test can see
 * whether the wrapping stage fell back.
 */
export function linkingPlanner(options: LinkingPlannerOptions = {}): PlannerV1 & { calls: number } {
  const planner = {
    specificationVersion: 'v1' as const,
    name: 'linking',
    calls: 0,
    async doPlan({ query, context }: Parameters<PlannerV1['doPlan']>[0]): Promise<Plan> {
      planner.calls += 1;
      const anchors = groundingAnchors(await groundQuestion(query, context));
      const known = new Set(context.schema.edgeTypes.map((e) => e.name));
      const relations = (options.relations ?? [brandProducts]).filter((r) => known.has(r.edgeType));
      return {
        ...emptyPlan(query, context.schema),
        anchors,
        paths: anchors.flatMap((anchor, index) =>
          relations
            .filter((r) => r.from === undefined || anchor.candidates[0]?.type === r.from)
            .map((r) => ({
              anchor: index,
              hops: [
                {
                  edgeType: r.edgeType,
                  direction: r.direction,
                  ...(r.nodeTypes ? { nodeTypes: [...r.nodeTypes] } : {}),
                },
              ],
              score: r.confidence ?? 1,
              ...(r.confidence === undefined ? {} : { confidence: r.confidence }),
            })),
        ),
        confidence: options.confidence ?? 0.9,
      };
    },
  };
  return planner;
}
