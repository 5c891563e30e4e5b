import type { CriticVerdict } from '@weft/spec';
import { z } from 'zod';

const feedbackKind = z.enum([
  'incorrect-entity',
  'missing-entity',
  'no-entity',
  'no-intersection',
  'incorrect-intersection',
  'wrong-module',
]);

/** A critic's verdict (`CriticVerdict` of `@weft/spec`): accept, or feedback of HybGRAG's kinds. */
export const criticVerdictSchema: z.ZodType<CriticVerdict> = z.union([
  z.object({ accept: z.literal(true) }),
  z.object({
    accept: z.literal(false),
    feedback: z
      .array(z.object({ kind: feedbackKind, message: z.string().min(1), entity: z.string().optional() }))
      .min(1),
  }),
]);

/** A pointwise relevance verdict: how well one candidate answers the query, 0 (not) to 10 (exactly). */
export const relevanceVerdictSchema = z.object({
  score: z.coerce.number().min(0).max(10),
  reason: z.string().optional(),
});

export type RelevanceVerdict = z.infer<typeof relevanceVerdictSchema>;

/** A pairwise verdict: which of two candidates, shown as A and B, answers the query better. */
export const pairwiseVerdictSchema = z.object({
  better: z.enum(['A', 'B', 'tie']),
  reason: z.string().optional(),
});

export type PairwiseVerdict = z.infer<typeof pairwiseVerdictSchema>;

/** A listwise verdict: the candidates' numbers (as shown, from 1), best first. */
export const listwiseVerdictSchema = z.object({
  ranking: z.array(z.coerce.number().int().min(1)).min(1),
});

export type ListwiseVerdict = z.infer<typeof listwiseVerdictSchema>;
