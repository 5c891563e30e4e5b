import { relationLabel } from '@weft/kit';
import type { EdgeDirection, RetrievalContext } from '@weft/spec';
import type { RelationStep, TopicEntity } from './bank-action.ts';

/** One step taken from a topic entity towards a node of its ego-graph. */
export interface EgoStep {
  /** The node the step reached. */
  readonly node: string;
  readonly nodeType: string;
  readonly edgeType: string;
  readonly direction: EdgeDirection;
}

/** A topic entity's ego-graph: every node its relation paths reach, with the first way found. */
export interface EgoGraph {
  readonly entity: TopicEntity;
  /** Node id → the steps from the entity to it (one or two). The entity itself is never a member. */
  readonly nodes: ReadonlyMap<string, readonly EgoStep[]>;
  /** A seed had more neighbours than `limitPerSeed`, or the graph hit `maxNodes`: it is a sample. */
  readonly truncated: boolean;
}

export interface EgoGraphOptions {
  /** Neighbours taken per node and step (default 2000): hubs are sampled, not expanded whole. */
  readonly limitPerSeed?: number;
  /** Most nodes per ego-graph (default 5000); the second step expands from the first ones found. */
  readonly maxNodes?: number;
}

interface Walk {
  readonly graph: number;
  readonly path: readonly RelationStep[];
  /** Frontier of this walk: node → steps so far. */
  frontier: Map<string, readonly EgoStep[]>;
}

/**
 * The ego-graphs of `entities` along their relation paths (radius ≤ 2), in the order given. Steps of
 * the same edge type and direction at the same depth are one batched `doNeighbors` call over every
 * seed that takes them, whichever entity or path the seed belongs to.
 */
export async function egoGraphs(
  entities: readonly TopicEntity[],
  context: RetrievalContext,
  options: EgoGraphOptions = {},
): Promise<EgoGraph[]> {
  const limitPerSeed = options.limitPerSeed ?? 2000;
  const maxNodes = options.maxNodes ?? 5000;
  const members = entities.map(() => new Map<string, readonly EgoStep[]>());
  const truncated = entities.map(() => false);
  let walks: Walk[] = entities.flatMap((entity, graph) =>
    entity.paths.map((path) => ({ graph, path, frontier: new Map([[entity.id, [] as readonly EgoStep[]]]) })),
  );
  for (let depth = 0; walks.length > 0; depth++) {
    const groups = new Map<string, Walk[]>();
    for (const walk of walks) {
      const step = walk.path[depth];
      if (!step || walk.frontier.size === 0) continue;
      const key = relationLabel(step.edgeType, step.direction, 'key');
      (groups.get(key) ?? groups.set(key, []).get(key)!).push(walk);
    }
    const next: Walk[] = [];
    for (const [key, group] of groups) {
      const [edgeType, direction] = key.split('|') as [string, EdgeDirection];
      const seeds = [...new Set(group.flatMap((walk) => [...walk.frontier.keys()]))];
      const neighbours = await context.graph.doNeighbors({
        seeds,
        edgeTypes: [edgeType],
        direction,
        limitPerSeed: limitPerSeed + 1,
        ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
      });
      const bySeed = new Map<string, typeof neighbours>();
      for (const n of neighbours) (bySeed.get(n.seed) ?? bySeed.set(n.seed, []).get(n.seed)!).push(n);
      for (const walk of group) {
        const entity = entities[walk.graph]!;
        const graph = members[walk.graph]!;
        const reached = new Map<string, readonly EgoStep[]>();
        for (const [seed, steps] of walk.frontier) {
          const list = bySeed.get(seed) ?? [];
          if (list.length > limitPerSeed) truncated[walk.graph] = true;
          for (const n of list.slice(0, limitPerSeed)) {
            if (n.node === entity.id || reached.has(n.node)) continue;
            const path = [
              ...steps,
              { node: n.node, nodeType: n.nodeType, edgeType: n.edgeType, direction: n.direction },
            ];
            reached.set(n.node, path);
            if (!graph.has(n.node)) {
              if (graph.size >= maxNodes) {
                truncated[walk.graph] = true;
                continue;
              }
              graph.set(n.node, path);
            }
          }
        }
        walk.frontier = reached;
        if (depth + 1 < walk.path.length) next.push(walk);
      }
    }
    walks = next;
  }
  return entities.map((entity, i) => ({ entity, nodes: members[i]!, truncated: truncated[i]! }));
}

/**
 * The nodes in every ego-graph, each with its steps from each entity (in the graphs' order). One
 * graph: its nodes. No graphs: nothing.
 */
export function intersectEgoGraphs(graphs: readonly EgoGraph[]): Map<string, (readonly EgoStep[])[]> {
  const out = new Map<string, (readonly EgoStep[])[]>();
  if (graphs.length === 0) return out;
  const [smallest] = [...graphs].sort((a, b) => a.nodes.size - b.nodes.size);
  for (const id of smallest!.nodes.keys()) {
    if (graphs.every((g) => g.nodes.has(id)))
      out.set(
        id,
        graphs.map((g) => g.nodes.get(id)!),
      );
  }
  // Keep the order in which the first graph found its nodes: deterministic, and nearest first.
  const order = [...graphs[0]!.nodes.keys()];
  return new Map(order.filter((id) => out.has(id)).map((id) => [id, out.get(id)!]));
}
