// Test support (not a test, not built): a small offline planner for the LLM planner to fall back
// on, so these tests depend on no sibling planner package.
import { emptyPlan } from '@weft/kit';
import { groundingAnchors, groundQuestion } from '@weft/grounding';
import type { Plan, PlannerV1 } from '@weft/spec';

/**
 * Grounds the query (the shared grounding step) and, when it names a brand of the toy shop, plans
 * brand ←made_by— product; `confidence` is what the LLM planner's `unsure` mode compares.
 */
export function linkingPlanner(confidence = 0.3): PlannerV1 & { calls: number } {
  const planner = {
    specificationVersion: 'v1' as const,
    name: 'linking',
    calls: 0,
    async doPlan({ query, context }: Parameters<PlannerV1['doPlan']>[0]): Promise<Plan> {
      planner.calls += 1;
      const base = emptyPlan(query, context.schema);
      const anchors = groundingAnchors(await groundQuestion(query, context));
      const brand = anchors.findIndex((a) => a.candidates[0]?.type === 'brand');
      const madeBy = context.schema.edgeTypes.some((e) => e.name === 'made_by');
      return {
        ...base,
        anchors,
        paths:
          brand >= 0 && madeBy
            ? [
                {
                  anchor: brand,
                  hops: [{ edgeType: 'made_by', direction: 'in', nodeTypes: ['product'] }],
                  score: 1,
                },
              ]
            : [],
        confidence,
      };
    },
  };
  return planner;
}
