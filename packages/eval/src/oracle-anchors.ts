import type { StackDefinition } from '@weft/core';
import { emptyPlan, WeftError } from '@weft/kit';
import type {
  Anchor,
  Plan,
  PlannerV1,
  PlanOptions,
  PlanPath,
  PlanTerm,
  PlanTriplet,
  SkbQuery,
} from '@weft/spec';
import { goldAnchorsOf } from './anchor-linking.ts';

/** A plan's anchors replaced: what a plan transform returns. */
export type PlanTransform = (plan: Plan, options: PlanOptions) => Plan | Promise<Plan>;

/**
 * Replaces a plan's anchors by `anchors`, keeping the planner's relations with the anchor they were
 * planned from. A planned anchor *becomes* the new anchor that is among its candidates (any rank);
 * its paths and triplets follow it. Paths and triplets of planned anchors that match no new anchor
 * are re-attached to every new anchor that has none of its own (the planner's relation guesses from
 * the right node); when every new anchor has its own, they are dropped. Paths from text matches,
 * target types, restriction and confidence are the planner's.
 */
export function replaceAnchors(plan: Plan, anchors: readonly Anchor[]): Plan {
  const ids = anchors.map((a) => new Set(a.candidates.map((c) => c.id)));
  const mapping = plan.anchors.map((anchor) => {
    for (const candidate of anchor.candidates) {
      const j = ids.findIndex((set) => set.has(candidate.id));
      if (j >= 0) return j;
    }
    return undefined;
  });
  const moved = (index: number | undefined) => (index === undefined ? undefined : mapping[index]);

  const kept: PlanPath[] = [];
  const orphans: PlanPath[] = [];
  for (const path of plan.paths) {
    if (path.anchor === undefined) kept.push(path);
    else {
      const anchor = moved(path.anchor);
      if (anchor === undefined) orphans.push(path);
      else kept.push({ ...path, anchor });
    }
  }
  const withPath = new Set(kept.map((p) => p.anchor));
  const bare = anchors.map((_, j) => j).filter((j) => !withPath.has(j));
  const seenHops = new Set<string>();
  for (const path of orphans) {
    const key = JSON.stringify(path.hops);
    if (seenHops.has(key)) continue;
    seenHops.add(key);
    for (const anchor of bare) kept.push({ ...path, anchor });
  }

  const term = (t: PlanTerm, anchor?: number): PlanTerm | undefined => {
    if (t.kind !== 'anchor') return t;
    if (anchor !== undefined) return { kind: 'anchor', anchor };
    const j = moved(t.anchor);
    return j === undefined ? undefined : { kind: 'anchor', anchor: j };
  };
  const triplets: PlanTriplet[] = [];
  const orphanTriplets: PlanTriplet[] = [];
  for (const t of plan.triplets) {
    const subject = term(t.subject);
    const object = term(t.object);
    if (subject && object) triplets.push({ ...t, subject, object });
    else orphanTriplets.push(t);
  }
  const constrained = new Set(
    triplets.flatMap((t) => [t.subject, t.object]).flatMap((t) => (t.kind === 'anchor' ? [t.anchor] : [])),
  );
  const seenTriplets = new Set<string>();
  for (const t of orphanTriplets) {
    // A triplet between two planned anchors that both match nothing has no place to go.
    if (t.subject.kind === 'anchor' && t.object.kind === 'anchor') continue;
    const key = JSON.stringify({ ...t, subject: t.subject.kind, object: t.object.kind });
    if (seenTriplets.has(key)) continue;
    seenTriplets.add(key);
    for (const anchor of anchors.keys()) {
      if (constrained.has(anchor)) continue;
      triplets.push({ ...t, subject: term(t.subject, anchor)!, object: term(t.object, anchor)! });
    }
  }
  return { ...plan, anchors, paths: kept, triplets };
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
