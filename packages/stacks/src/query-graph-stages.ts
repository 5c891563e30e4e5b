import { QueryGraphPlanner, QueryGraphReranker, QueryGraphTraverser } from '@weft/query-graph';
import type { PlannerV1, RerankerV1, TraverserV1 } from '@weft/spec';

/**
 * How the offline seed stacks plan through the question's query graphs (`@weft/query-graph`): their
 * own planner's plan, with the readings the question confirms added as paths with endpoints; the
 * endpoints join the candidates (`QueryGraphTraverser`) and are ranked first (`QueryGraphReranker`,
 * last), so a confident plan is executed as a filter and a question that confirms no reading is
 * ranked as the stack ranks it alone.
 *
 * The readings executed are those whose relation the question names with little text left
 * (`executedReadings` of `@weft/query-graph`, the default stack's rule).
 */

/**
 * A seed's planner with the question's query graphs read on top: only the executed readings join
 * its paths (its traversers follow every planned path). With a `linker` (MoR's and
 * FocusedRetriever's schema planner link names only, and few senses) the readings start from the
 * linker's anchors; a mention only the linker read joins the plan when an executed reading starts
 * from it.
 */
export function readingPlanner(
  base: PlannerV1,
  options: {
    readonly linker?: PlannerV1;
    readonly executeModelPlans?: boolean | { readonly field?: string };
  } = {},
): PlannerV1 {
  return new QueryGraphPlanner({
    base,
    readings: 'executed',
    // The LLM stacks plan through it as their offline halves do; a model's own plan is left as it is
    // (or, with `executeModelPlans`, executed: its endpoints ranked first).
    keepModelPlans: true,
    ...(options.executeModelPlans ? { executeModelPlans: options.executeModelPlans } : {}),
    ...(options.linker ? { linker: options.linker } : {}),
  });
}

/** The traversers of a stack with the plan's executed readings' endpoints added. */
export function withPlanTraversers<T extends { readonly traversers: readonly TraverserV1[] }>(stages: T): T {
  return { ...stages, traversers: [...stages.traversers, new QueryGraphTraverser()] };
}

/** The reranker that puts the executed readings' endpoints first and the excluded answers last. */
export function planReranker(): RerankerV1 {
  return new QueryGraphReranker();
}
