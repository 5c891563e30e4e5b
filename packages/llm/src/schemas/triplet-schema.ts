import { z } from 'zod';

/**
 * A fact as models write it: `(subject, relation, object)` with names, e.g. ("Nikon D850", "made by",
 * "Nikon"). The shape of `ExpansionTriple` (KAR's expansions) and of triplets a model lists before
 * they are grounded to nodes and edge types.
 */
export const tripletSchema = z.object({
  subject: z.string().min(1),
  relation: z.string().min(1),
  object: z.string().min(1),
});

export type Triplet = z.infer<typeof tripletSchema>;
