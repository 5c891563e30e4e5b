import { edgeTypeWords } from '@weft/kit';
import type { EdgeDirection, RetrievalContext } from '@weft/spec';

/** One edge of the neighbourhood as stored: `head -[edgeType]-> tail`. */
export interface Triple {
  readonly head: string;
  readonly edgeType: string;
  readonly tail: string;
}

/** The edges around a query's seed nodes, with the names and types of every node they touch. */
export interface Neighbourhood {
  readonly triples: readonly Triple[];
  readonly names: ReadonlyMap<string, string>;
  readonly types: ReadonlyMap<string, string>;
}

export interface NeighbourhoodOptions {
  /** Edges taken per seed (default 60): a hub contributes its first ones only. */
  readonly perSeed?: number;
  /** At most this many triples in all (default 3,000). */
  readonly maxTriples?: number;
}

/** A triple read in the direction it is stored, whichever side the expansion started from. */
export function storedTriple(seed: string, node: string, edgeType: string, direction: EdgeDirection): Triple {
  return direction === 'out' ? { head: seed, edgeType, tail: node } : { head: node, edgeType, tail: seed };
}

/** "<head> <relation> <tail>", the relation's underscores read as spaces (MixRAG's verbalisation). */
export function verbaliseTriple(triple: Triple, names: ReadonlyMap<string, string>): string {
  return `${names.get(triple.head) ?? triple.head} ${edgeTypeWords(triple.edgeType)} ${names.get(triple.tail) ?? triple.tail}`;
}

/**
 * The one-hop neighbourhood of the seeds (one batched expansion), deduplicated, with node names
 * (one batched look-up) for verbalising the triples.
 */
export async function loadNeighbourhood(
  seeds: readonly string[],
  context: RetrievalContext,
  options: NeighbourhoodOptions = {},
): Promise<Neighbourhood> {
  const signal = context.abortSignal ? { abortSignal: context.abortSignal } : {};
  const found =
    seeds.length === 0
      ? []
      : await context.graph.doNeighbors({
          seeds,
          direction: 'both',
          limitPerSeed: options.perSeed ?? 60,
          ...signal,
        });
  const types = new Map<string, string>();
  const triples: Triple[] = [];
  const seen = new Set<string>();
  for (const n of found) {
    types.set(n.node, n.nodeType);
    const triple = storedTriple(n.seed, n.node, n.edgeType, n.direction);
    const key = `${triple.head}\u0000${triple.edgeType}\u0000${triple.tail}`;
    if (seen.has(key)) continue;
    seen.add(key);
    triples.push(triple);
    if (triples.length >= (options.maxTriples ?? 3000)) break;
  }
  const ids = [...new Set([...seeds, ...triples.flatMap((t) => [t.head, t.tail])])];
  const nodes = ids.length > 0 ? await context.graph.doGetNodes(ids, signal) : [];
  const names = new Map<string, string>();
  nodes.forEach((node, i) => {
    if (!node) return;
    names.set(ids[i]!, node.name);
    types.set(ids[i]!, node.type);
  });
  return { triples, names, types };
}
