import type { ExpandDirection, GraphNeighbor, GraphStoreV1 } from '@weft/spec';

/** One hop of a metapath. */
export interface MetapathStep {
  readonly edgeTypes?: readonly string[];
  readonly direction: ExpandDirection;
  /** Keep only nodes of these types at the end of this hop. */
  readonly nodeTypes?: readonly string[];
  /** At most this many neighbours per frontier node at this hop. */
  readonly limitPerNode?: number;
}

/** A walk from a seed: the hops taken, in order; `node` is where it ends. */
export interface MetapathPath {
  readonly seed: string;
  readonly node: string;
  readonly nodeType: string;
  readonly hops: readonly GraphNeighbor[];
}

export interface ExpandMetapathOptions {
  readonly seeds: readonly string[];
  readonly steps: readonly MetapathStep[];
  /** Stop growing a seed's paths past this many per hop (default 1,000). */
  readonly maxPathsPerSeed?: number;
  /** Drop paths that revisit a node (default true). */
  readonly simple?: boolean;
  readonly abortSignal?: AbortSignal;
}

/**
 * k-hop metapath expansion on any `GraphStoreV1`: each hop is one batched `doNeighbors` call over
 * the whole frontier (all seeds together), so a k-hop metapath costs k queries however many seeds.
 * Returns every path that completes all steps, grouped by seed in seed order.
 */
export async function expandMetapath(
  store: GraphStoreV1,
  options: ExpandMetapathOptions,
): Promise<MetapathPath[]> {
  const maxPaths = options.maxPathsPerSeed ?? 1_000;
  const simple = options.simple ?? true;
  let paths: MetapathPath[] = [...new Set(options.seeds)].map((seed) => ({
    seed,
    node: seed,
    nodeType: '',
    hops: [],
  }));
  for (const step of options.steps) {
    if (paths.length === 0) break;
    const frontier = [...new Set(paths.map((p) => p.node))];
    const neighbors = await store.doNeighbors({
      seeds: frontier,
      direction: step.direction,
      ...(step.edgeTypes ? { edgeTypes: step.edgeTypes } : {}),
      ...(step.nodeTypes ? { nodeTypes: step.nodeTypes } : {}),
      ...(step.limitPerNode !== undefined ? { limitPerSeed: step.limitPerNode } : {}),
      ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
    });
    const from = new Map<string, GraphNeighbor[]>();
    for (const neighbor of neighbors) {
      const list = from.get(neighbor.seed);
      if (list) list.push(neighbor);
      else from.set(neighbor.seed, [neighbor]);
    }
    const next: MetapathPath[] = [];
    const perSeed = new Map<string, number>();
    for (const path of paths) {
      for (const hop of from.get(path.node) ?? []) {
        if (simple && (hop.node === path.seed || path.hops.some((h) => h.node === hop.node))) continue;
        const count = perSeed.get(path.seed) ?? 0;
        if (count >= maxPaths) break;
        perSeed.set(path.seed, count + 1);
        next.push({ seed: path.seed, node: hop.node, nodeType: hop.nodeType, hops: [...path.hops, hop] });
      }
    }
    paths = next;
  }
  return options.steps.length === 0 ? [] : paths;
}
