import type { PathPlanOutput } from '@weft/llm';
import type { Plan } from '@weft/spec';

/**
 * A plan in the form the model is asked to write (for few-shot examples): the likely target types,
 * the anchors of its best paths with their node types, and up to `maxPaths` paths hop by hop.
 */
export function toPathPlanOutput(plan: Plan, maxPaths = 2): PathPlanOutput {
  const paths = plan.paths.slice(0, maxPaths);
  const used = [...new Set(paths.map((p) => p.anchor).filter((a): a is number => a !== undefined))];
  return {
    targetTypes: plan.targetTypes
      .filter((t) => t.score >= 0.5)
      .slice(0, 3)
      .map((t) => t.type),
    anchors: used.map((a) => {
      const anchor = plan.anchors[a]!;
      const type = anchor.candidates[0]?.type;
      return { mention: anchor.mention, ...(type ? { type } : {}) };
    }),
    paths: paths.map((path) => {
      const anchor = path.anchor === undefined ? undefined : plan.anchors[path.anchor];
      const startType = path.startTypes?.[0];
      return {
        ...(anchor ? { anchor: anchor.mention } : startType ? { startType } : {}),
        hops: path.hops.map((hop) => ({
          edge: hop.edgeType,
          direction: hop.direction,
          ...(hop.nodeTypes?.length === 1 ? { nodeType: hop.nodeTypes[0]! } : {}),
          ...(hop.restriction ? { restriction: hop.restriction } : {}),
        })),
      };
    }),
    restriction: plan.restriction,
  };
}
