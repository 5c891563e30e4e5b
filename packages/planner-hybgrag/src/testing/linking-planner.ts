// Test support (not a test, not built): a small base planner for the routers, so that these tests
// depend on no sibling planner package.
import { emptyPlan } from '@weft/kit';
import { groundingAnchors, groundQuestion } from '@weft/grounding';
import type { Plan, PlannerV1 } from '@weft/spec';

/**
 * Grounds the query (the shared grounding step) and, like a trained lexical planner, plans for
 * each mention the relations `relations` names (edge type and direction, when the store's schema
 * has them) with the given calibrated confidence; `confidence` is the plan's.
 */
export function linkingPlanner(
  options: {
    readonly relations?: readonly {
      readonly edgeType: string;
      readonly direction: 'in' | 'out';
      readonly confidence: number;
    }[];
    readonly confidence?: number;
  } = {},
): PlannerV1 & { calls: number } {
  const planner = {
    specificationVersion: 'v1' as const,
    name: 'linking',
    calls: 0,
    async doPlan({ query, context }: Parameters<PlannerV1['doPlan']>[0]): Promise<Plan> {
      planner.calls += 1;
      const anchors = groundingAnchors(await groundQuestion(query, context));
      const known = new Set(context.schema.edgeTypes.map((e) => e.name));
      const relations = (options.relations ?? []).filter((r) => known.has(r.edgeType));
      return {
        ...emptyPlan(query, context.schema),
        anchors,
        paths: anchors.flatMap((_, anchor) =>
          relations.map((r) => ({
            anchor,
            hops: [{ edgeType: r.edgeType, direction: r.direction }],
            score: r.confidence,
            confidence: r.confidence,
          })),
        ),
        confidence: options.confidence ?? 0.9,
      };
    },
  };
  return planner;
}
