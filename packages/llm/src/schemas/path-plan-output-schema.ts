import { z } from 'zod';

/**
 * What a model writes for MoR's planning graph: the target types, the mentions it anchors on (with
 * the node type it takes each for), and typed paths from an anchor (or from text matches of a start
 * type) to the target, each hop with its edge type, direction, landing type and textual restriction.
 * Names are the model's: the planner grounds them against the schema and the name index.
 */
export const pathPlanOutputSchema = z.object({
  targetTypes: z.array(z.string()).default([]),
  anchors: z.array(z.object({ mention: z.string().min(1), type: z.string().optional() })).default([]),
  paths: z
    .array(
      z.object({
        anchor: z.string().optional(),
        startType: z.string().optional(),
        hops: z
          .array(
            z.object({
              edge: z.string().min(1),
              direction: z.enum(['out', 'in']).optional(),
              nodeType: z.string().optional(),
              restriction: z.string().optional(),
            }),
          )
          .min(1),
      }),
    )
    .default([]),
  restriction: z.string().default(''),
});

export type PathPlanOutput = z.infer<typeof pathPlanOutputSchema>;
