import type { EdgeDirection, Plan, RetrievalContext } from '@weft/spec';
import { type Adjacency, join, type Pool } from './candidate-pool.ts';
import { type FieldScores, scoreIds } from './field-searches.ts';
import type { FieldTraverserOptions } from './options.ts';

/** An anchor that holds a node among its candidates. */
export interface Owner {
  /** Index into `plan.anchors`. */
  readonly anchor: number;
  /** The anchor's confidence × the node's candidate score. */
  readonly weight: number;
  readonly type: string;
  /** False for a node the anchor only describes. */
  readonly named: boolean;
}

/** The mentioned nodes' neighbours, each with how it touches them, and each neighbour's type. */
export interface AnchorNeighbours {
  readonly links: Map<string, Adjacency[]>;
  readonly types: Map<string, string>;
}

export const opposite = (direction: EdgeDirection): EdgeDirection => (direction === 'in' ? 'out' : 'in');

/**
 * The anchors that name a node: adjacency to another candidate of the same mention does not count
 * for it (a name's namesakes do not confirm each other). A node an anchor only describes
 * (`named: false`) may still be next to that anchor's named node (Tyrogue → Hitmontop, its evolution).
 */
export const namesakes = (owners: readonly Owner[] | undefined): Set<number> =>
  new Set((owners ?? []).filter((o) => o.named).map((o) => o.anchor));

/**
 * The nodes whose neighbours become candidates, with the anchors that hold them: the first
 * `nodesPerMention` candidates of each mention specific enough on its own (`minSpecificity`) and
 * beside the question's surest mention (`relativeSpecificity`).
 */
export function expanded(plan: Plan, options: FieldTraverserOptions): Map<string, Owner[]> {
  const surest = Math.max(0, ...plan.anchors.map((a) => a.confidence));
  const floor = Math.max(options.minSpecificity ?? 0.2, surest * (options.relativeSpecificity ?? 0.8));
  const perMention = options.nodesPerMention ?? 5;
  const owners = new Map<string, Owner[]>();
  plan.anchors.forEach((anchor, index) => {
    if (anchor.confidence < floor) return;
    for (const node of anchor.candidates.slice(0, perMention)) {
      const list = owners.get(node.id) ?? owners.set(node.id, []).get(node.id)!;
      list.push({
        anchor: index,
        weight: anchor.confidence * node.score,
        type: node.type,
        named: node.named !== false,
      });
    }
  });
  return owners;
}

/**
 * The neighbours of the nodes the query names (up to `neighborsPerNode` per node, of any edge
 * type): how each touches them, and each neighbour's type.
 */
export async function anchorNeighbours(
  plan: Plan,
  context: RetrievalContext,
  options: FieldTraverserOptions,
): Promise<AnchorNeighbours> {
  const owners = expanded(plan, options);
  const out = new Map<string, Adjacency[]>();
  const types = new Map<string, string>();
  if (owners.size === 0) return { links: out, types };
  const neighbours = await context.graph.doNeighbors({
    seeds: [...owners.keys()],
    direction: 'both',
    limitPerSeed: options.neighborsPerNode ?? 300,
    ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
  });
  for (const n of neighbours) {
    // A named node next to a node another mention names still counts as adjacent ("the hypernym
    // of 'cucumber' (a melon vine …)" names its answer); a mention never links its own namesakes.
    const namedBy = namesakes(owners.get(n.node));
    for (const owner of owners.get(n.seed) ?? []) {
      if (namedBy.has(owner.anchor)) continue;
      const list = out.get(n.node) ?? out.set(n.node, []).get(n.node)!;
      types.set(n.node, n.nodeType);
      list.push({
        anchor: owner.anchor,
        node: n.seed,
        nodeType: owner.type,
        edgeType: n.edgeType,
        direction: n.direction,
        weight: owner.weight,
      });
    }
  }
  return { links: out, types };
}

/** The mentioned nodes' neighbours of the target types: those `addStructural` may add. */
export function structuralIds({ links, types }: AnchorNeighbours, context: RetrievalContext): string[] {
  const targets = context.schema.targetTypes ? new Set(context.schema.targetTypes) : undefined;
  return [...links.keys()].filter((id) => !targets || targets.has(types.get(id)!));
}

/**
 * The mentioned nodes' neighbours of the target types whose documents best match the query.
 * `documentScores`: their document scores, from a search that covered them all (else searched here).
 */
export async function addStructural(
  query: string,
  neighbours: AnchorNeighbours,
  pool: Pool,
  context: RetrievalContext,
  options: FieldTraverserOptions,
  documentScores?: Promise<FieldScores>,
): Promise<void> {
  const { links: structural, types } = neighbours;
  const ids = structuralIds(neighbours, context);
  for (const id of ids) {
    pool.adjacency.set(id, structural.get(id)!);
    pool.types.set(id, types.get(id)!);
  }
  if (ids.length === 0) return;
  const { hits } = await (documentScores ?? scoreIds(query, ids, undefined, context));
  const best = new Map(ids.flatMap((id) => (hits.has(id) ? [[id, hits.get(id)!.score] as const] : [])));
  const top = Math.max(0, ...best.values());
  // The surest mention's neighbours first, each raised by how well its document matches: a node
  // next to the named entity with no word of the question must still be a candidate.
  const priority = (id: string) =>
    Math.max(...structural.get(id)!.map((a) => a.weight)) * (1 + (top > 0 ? (best.get(id) ?? 0) / top : 0));
  const chosen = [...ids]
    .sort((a, b) => priority(b) - priority(a) || a.localeCompare(b))
    .slice(0, options.structuralK ?? 100);
  for (const id of chosen) {
    join(pool, id);
    const score = best.get(id);
    if (score !== undefined && !pool.document.has(id)) pool.document.set(id, score);
  }
}
