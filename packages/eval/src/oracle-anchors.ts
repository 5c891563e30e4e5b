import { emptyPlan, type StackDefinition, WeftError } from '@weft/core';
import type { Anchor, Plan, PlannerV1, PlanOptions, PlanTerm, SkbQuery } from '@weft/spec';
import { goldAnchorsOf } from './anchor-linking.ts';

/** A plan's anchors replaced: what a plan transform returns. */
export type PlanTransform = (plan: Plan, options: PlanOptions) => Plan | Promise<Plan>;

/**
 * Replaces a plan's anchors and drops what pointed at anchors that no longer exist: paths whose
 * `anchor` index is out of range, and triplets with such an anchor term. Everything else (target
 * types, restriction, paths from text matches, confidence) is the planner's.
 */
export function replaceAnchors(plan: Plan, anchors: readonly Anchor[]): Plan {
  const exists = (term: PlanTerm) => term.kind !== 'anchor' || term.anchor < anchors.length;
  return {
    ...plan,
    anchors,
    paths: plan.paths.filter((path) => path.anchor === undefined || path.anchor < anchors.length),
    triplets: plan.triplets.filter((t) => exists(t.subject) && exists(t.object)),
  };
}

/**
 * A planner that runs `planner` (or, for a stack without one, makes the plan `createRetriever`
 * would: the whole query restricting the target types) and passes the plan through `transform`.
 * Its name is the wrapped planner's, so traces read the same.
 */
export function transformPlanner(planner: PlannerV1 | undefined, transform: PlanTransform): PlannerV1 {
  return {
    specificationVersion: 'v1',
    name: planner?.name ?? 'plan',
    async doPlan(options) {
      const plan = planner ? await planner.doPlan(options) : emptyPlan(options.query, options.context.schema);
      return transform(plan, options);
    },
  };
}

/** A stack definition whose planner's plans go through `transform` (every round). */
export function withPlanTransform(definition: StackDefinition, transform: PlanTransform): StackDefinition {
  return { ...definition, planner: transformPlanner(definition.planner, transform) };
}

/**
 * The gold anchors of a query set by question text, as plan anchors: one anchor per gold node, with
 * confidence 1, the node as its only candidate (score 1) and the node's name as the mention. Nodes
 * are read from the store (`context.graph`) on first use. Gold entries naming a node type (WordNet's
 * `topic_and_type`) are left out. A question asked twice with different gold anchors is refused:
 * the retriever sees the question text only.
 */
export function oracleAnchors(
  queries: readonly SkbQuery[],
  options: { readonly nodeTypes?: ReadonlySet<string> } = {},
): PlanTransform {
  const byQuestion = new Map<string, readonly string[]>();
  for (const query of queries) {
    const gold = goldAnchorsOf(query, options.nodeTypes);
    if (!gold) continue;
    const seen = byQuestion.get(query.query);
    if (seen && seen.join('\n') !== gold.join('\n'))
      throw new WeftError({
        code: 'WEFT_BAD_INPUT',
        message: `the question of ${query.id} is asked again with other gold anchors: the anchor oracle cannot tell them apart`,
      });
    byQuestion.set(query.query, gold);
  }
  const resolved = new Map<string, Promise<readonly Anchor[]>>();
  return async (plan, { query: asked, context }) => {
    const query = questionIn(asked, byQuestion);
    // A question without gold anchors keeps its own (a text-only question has none to give).
    if (query === undefined) return plan;
    const gold = byQuestion.get(query)!;
    let anchors = resolved.get(query);
    if (!anchors) {
      anchors = context.graph.doGetNodes(gold).then((nodes) =>
        gold.flatMap((id, i) => {
          const node = nodes[i];
          if (!node) {
            context.warn?.(`oracle anchors: gold anchor ${id} is not in the store`);
            return [];
          }
          return [
            {
              mention: node.name,
              confidence: 1,
              candidates: [{ id: node.id, type: node.type, score: 1 }],
            },
          ];
        }),
      );
      resolved.set(query, anchors);
    }
    return replaceAnchors(plan, await anchors);
  };
}

/**
 * The question of `known` that `query` is: itself, or — when an expander (KAR) rewrote it into the
 * question followed by more text — the longest known question it starts with.
 */
export function questionIn(query: string, known: ReadonlyMap<string, unknown>): string | undefined {
  if (known.has(query)) return query;
  let best: string | undefined;
  for (const question of known.keys())
    if (
      question.length > (best?.length ?? 0) &&
      query.startsWith(question) &&
      /\s/.test(query.charAt(question.length))
    )
      best = question;
  return best;
}
