import type { RelationalConstraint, RelationalPartData } from '@weft/oracle';
import type { SkbEdge, SkbNode } from '@weft/spec';

export type { RelationalConstraint } from '@weft/oracle';

/** One step of a constraint: follow edges of `edge` forwards (`out`, src -> dst) or backwards (`in`, dst -> src). */
export type RelationStep = RelationalConstraint['path'][number];

/**
 * A hybrid query's relational part as data (`RelationalPartData` of `@weft/oracle`, which reads it
 * too, with the answer type always given): the answers are the nodes of `answerType` that satisfy
 * every constraint (an intersection), the anchors themselves excepted. A 1-hop query has one
 * constraint with one step, a 2-hop chain one constraint with two steps, a two-anchor query two
 * constraints.
 */
export interface RelationalPart extends RelationalPartData {
  readonly answerType: string;
}

/** Edges indexed by (node, edge type, direction), for walking relational parts. */
export class EdgeIndex {
  private readonly adjacency = new Map<string, string[]>();
  private readonly types = new Map<string, string>();

  constructor(nodes: Iterable<Pick<SkbNode, 'id' | 'type'>>, edges: Iterable<SkbEdge>) {
    for (const node of nodes) this.types.set(node.id, node.type);
    for (const edge of edges) {
      this.push(`${edge.src}\t${edge.type}\tout`, edge.dst);
      this.push(`${edge.dst}\t${edge.type}\tin`, edge.src);
    }
  }

  private push(key: string, id: string): void {
    const list = this.adjacency.get(key);
    if (list) list.push(id);
    else this.adjacency.set(key, [id]);
  }

  /** Nodes one step from `id`. */
  neighbours(id: string, step: RelationStep): readonly string[] {
    return this.adjacency.get(`${id}\t${step.edge}\t${step.direction}`) ?? [];
  }

  typeOf(id: string): string | undefined {
    return this.types.get(id);
  }
}

const reversed = (step: RelationStep): RelationStep => ({
  edge: step.edge,
  direction: step.direction === 'out' ? 'in' : 'out',
});

/** Every node that satisfies the relational part: the candidate set of a hybrid query, sorted. */
export function candidatesOf(part: RelationalPart, index: EdgeIndex): string[] {
  let result: Set<string> | undefined;
  for (const constraint of part.constraints) {
    // Walk from the anchor back towards the answer: the path reversed, each step turned around.
    let frontier = new Set([constraint.anchor]);
    for (const step of [...constraint.path].reverse()) {
      const next = new Set<string>();
      for (const id of frontier) for (const n of index.neighbours(id, reversed(step))) next.add(n);
      frontier = next;
    }
    result = result ? new Set([...result].filter((id) => frontier.has(id))) : frontier;
  }
  const anchors = new Set(part.constraints.map((c) => c.anchor));
  return [...(result ?? [])].filter((id) => index.typeOf(id) === part.answerType && !anchors.has(id)).sort();
}
