import type { Plan } from '@weft/spec';
import { z } from 'zod';

const unit = z.number().min(0).max(1);

export const typeScoreSchema = z.object({ type: z.string().min(1), score: unit });

export const anchorSchema = z.object({
  mention: z.string(),
  candidates: z.array(z.object({ id: z.string().min(1), score: unit, type: z.string().min(1) })),
  confidence: unit,
});

export const planHopSchema = z.object({
  edgeType: z.string().min(1),
  direction: z.enum(['out', 'in']),
  nodeTypes: z.array(z.string().min(1)).optional(),
  restriction: z.string().optional(),
});

export const planPathSchema = z.object({
  anchor: z.number().int().min(0).optional(),
  startTypes: z.array(z.string().min(1)).optional(),
  hops: z.array(planHopSchema),
  score: unit,
  confidence: unit.optional(),
});

export const planTermSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('variable'), name: z.string().min(1) }),
  z.object({ kind: z.literal('anchor'), anchor: z.number().int().min(0) }),
]);

export const planVariableSchema = z.object({
  name: z.string().min(1),
  nodeTypes: z.array(z.string().min(1)).optional(),
  restriction: z.string().optional(),
});

/** `subject -[edgeType]-> object` of a plan (FocusedRetriever's constraint). */
export const planTripletSchema = z.object({
  subject: planTermSchema,
  edgeType: z.string().min(1),
  object: planTermSchema,
});

/**
 * `Plan` of `@weft/spec` as a zod schema: for plans that cross a process or file boundary (cassettes,
 * `weft query --json` output, plans written by hand). It checks shapes and ranges; that anchors,
 * variables and types exist is `planProblems` of `@weft/conformance`.
 */
export const planSchema: z.ZodType<Plan> = z.object({
  query: z.string(),
  targetTypes: z.array(typeScoreSchema),
  anchors: z.array(anchorSchema),
  paths: z.array(planPathSchema),
  variables: z.array(planVariableSchema),
  triplets: z.array(planTripletSchema),
  target: z.string().optional(),
  restriction: z.string(),
  confidence: unit,
  raw: z.string().optional(),
  cypher: z.string().optional(),
});
