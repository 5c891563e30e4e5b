import type { Plan, SkbSchema } from '@weft/spec';

/** The plan of a stack without a planner: the whole query is the restriction on the target types. */
export function emptyPlan(query: string, schema: SkbSchema): Plan {
  return {
    query,
    targetTypes: (schema.targetTypes ?? []).map((type) => ({ type, score: 1 })),
    anchors: [],
    paths: [],
    variables: [],
    triplets: [],
    restriction: query,
    confidence: 0,
  };
}
