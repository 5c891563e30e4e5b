import type { Plan, SkbSchema } from '@weft/spec';

/**
 * The node types a search should cover: the plan's target types when it names some, else the
 * schema's, else none. Undefined = every type, also when the list names every type of the schema
 * (a filter that keeps everything only slows the index down).
 */
export function searchTypes(plan: Plan, schema: SkbSchema): readonly string[] | undefined {
  const types =
    plan.targetTypes.length > 0
      ? plan.targetTypes.map((entry) => entry.type)
      : schema.targetTypes && schema.targetTypes.length > 0
        ? schema.targetTypes
        : undefined;
  if (!types) return undefined;
  const listed = new Set(types);
  return schema.nodeTypes.every((type) => listed.has(type.name)) ? undefined : types;
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
