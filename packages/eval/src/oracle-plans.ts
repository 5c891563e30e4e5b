import { searchText, WeftError } from '@weft/kit';
import type { Anchor, EdgeDirection, Plan, PlanPath, RetrievalContext } from '@weft/spec';
import { type PlanTransform, questionIn } from './oracle-anchors.ts';

/** A gold plan: anchors (node ids), relation paths from them to the answers, the answer type. */
export interface GoldPlanInput {
  readonly question: string;
  readonly anchors: readonly string[];
  readonly paths: readonly {
    readonly anchor: string;
    readonly hops: readonly { readonly edgeType: string; readonly direction: EdgeDirection | 'both' }[];
  }[];
  readonly answerType?: string;
}

/** Most endpoints a gold path hands the stack (the best by the question's text first). */
const maxEndpoints = 1000;

/**
 * `--oracle plan`: every plan gets the gold plan — the gold anchors (confidence 1, the node its only
 * candidate), the gold relation paths from them, each followed in the graph with the nodes it reaches
 * as its `endpoints` (best match of the question's text first) and confidence 1 / the number of
 * paths (an answer two paths reach is surer), and the gold answer type. Each stack ranks with its own
 * text scoring: the loss left is execution. A question without a gold plan keeps its own.
 */
export function oraclePlans(gold: readonly GoldPlanInput[]): PlanTransform {
  const byQuestion = new Map<string, GoldPlanInput>();
  for (const plan of gold) {
    const seen = byQuestion.get(plan.question);
    if (seen && JSON.stringify(seen) !== JSON.stringify(plan))
      throw new WeftError({
        code: 'WEFT_BAD_INPUT',
        message: `the question "${plan.question}" is asked again with another gold plan: the plan oracle cannot tell them apart`,
      });
    byQuestion.set(plan.question, plan);
  }
  const resolved = new Map<string, Promise<Plan>>();
  return async (plan, { query: asked, context }) => {
    const question = questionIn(asked, byQuestion);
    const gold = question === undefined ? undefined : byQuestion.get(question);
    if (!gold || gold.paths.length === 0) return plan;
    let done = resolved.get(question!);
    if (!done) {
      done = goldPlan(plan, gold, context);
      resolved.set(question!, done);
    }
    return { ...(await done), query: plan.query };
  };
}

async function goldPlan(plan: Plan, gold: GoldPlanInput, context: RetrievalContext): Promise<Plan> {
  const signal = context.abortSignal ? { abortSignal: context.abortSignal } : {};
  const ids = [...new Set([...gold.anchors, ...gold.paths.map((p) => p.anchor)])];
  const nodes = await context.graph.doGetNodes(ids, signal);
  const anchors: Anchor[] = [];
  const index = new Map<string, number>();
  ids.forEach((id, i) => {
    const node = nodes[i];
    if (!node) {
      context.warn?.(`oracle plan: gold anchor ${id} is not in the store`);
      return;
    }
    index.set(id, anchors.length);
    anchors.push({ mention: node.name, confidence: 1, candidates: [{ id, type: node.type, score: 1 }] });
  });
  const paths: PlanPath[] = [];
  const share = 1 / gold.paths.length;
  for (const path of gold.paths) {
    const anchor = index.get(path.anchor);
    if (anchor === undefined) continue;
    let frontier = [path.anchor];
    for (const hop of path.hops) {
      const next = await context.graph.doNeighbors({
        seeds: frontier,
        edgeTypes: [hop.edgeType],
        direction: hop.direction,
        ...signal,
      });
      frontier = [...new Set(next.map((n) => n.node))];
    }
    const reached = frontier.filter((id) => id !== path.anchor);
    const [hits = []] = reached.length
      ? await searchText(context.text, [plan.query], {
          limit: reached.length,
          filter: { ids: reached },
          ...signal,
        })
      : [[]];
    const rank = new Map(hits.map((hit, i) => [hit.id, i]));
    const endpoints = [...reached]
      .sort((a, b) => (rank.get(a) ?? Infinity) - (rank.get(b) ?? Infinity) || a.localeCompare(b))
      .slice(0, maxEndpoints);
    paths.push({
      anchor,
      node: path.anchor,
      hops: path.hops.map((h) => ({
        edgeType: h.edgeType,
        direction: h.direction === 'both' ? 'out' : h.direction,
      })),
      score: 1,
      confidence: share,
      endpoints,
    });
  }
  return {
    ...plan,
    anchors,
    paths,
    targetTypes: gold.answerType ? [{ type: gold.answerType, score: 1 }] : plan.targetTypes,
    confidence: 1,
  };
}
