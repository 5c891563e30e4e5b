import { narrowingTypes } from '@weft/kit';
import type { Candidate, IndexHit, Plan, RetrievalContext, SkbSchema } from '@weft/spec';

/**
 * The node types a search should cover: the plan's target types when it names some, else the
 * schema's, else none. Undefined = every type, also when the list names every type of the schema
 * (a filter that keeps everything only slows the index down).
 */
export function searchTypes(plan: Plan, schema: SkbSchema): readonly string[] | undefined {
  return narrowingTypes(
    plan.targetTypes.length > 0 ? plan.targetTypes.map((entry) => entry.type) : schema.targetTypes,
    schema,
  );
}

/** Node types of `ids` from the graph, for candidates of searches that covered several types. */
export async function nodeTypes(
  ids: readonly string[],
  types: readonly string[] | undefined,
  graph: {
    doGetNodes(
      ids: readonly string[],
      options?: { abortSignal?: AbortSignal },
    ): Promise<({ type: string } | undefined)[]>;
  },
  abortSignal?: AbortSignal,
): Promise<(string | undefined)[]> {
  // One searched type is every hit's type: no lookup needed.
  if (types?.length === 1) return ids.map(() => types[0]);
  if (ids.length === 0) return [];
  const nodes = await graph.doGetNodes(ids, abortSignal ? { abortSignal } : undefined);
  return nodes.map((node) => node?.type);
}

/**
 * Search hits as one-hop candidates (`via` text or vector), typed when one type was searched or
 * `resolveTypes` asks for a graph look-up; the hit's score is kept under `scoreName`.
 */
export async function hitCandidates(
  hits: readonly IndexHit[],
  options: {
    readonly types: readonly string[] | undefined;
    readonly resolveTypes: boolean;
    readonly context: RetrievalContext;
    readonly via: 'text' | 'vector';
    readonly scoreName: string;
    readonly source: string;
  },
): Promise<Candidate[]> {
  const { types, context, via } = options;
  const resolved =
    (!options.resolveTypes && types?.length !== 1) || hits.every((hit) => hit.type !== undefined)
      ? hits.map((hit) => hit.type)
      : await nodeTypes(
          hits.map((hit) => hit.id),
          types,
          context.graph,
          context.abortSignal,
        );
  return hits.map((hit, i) => {
    const type = hit.type ?? resolved[i];
    return {
      id: hit.id,
      ...(type === undefined ? {} : { type }),
      score: hit.score,
      scores: { [options.scoreName]: hit.score },
      trajectories: [
        {
          hops: [
            {
              node: hit.id,
              ...(type === undefined ? {} : { nodeType: type }),
              ...(via === 'text' ? { textScore: hit.score } : {}),
              via,
            },
          ],
        },
      ],
      source: options.source,
    };
  });
}
