import type { SkbEdge, SkbNode } from './skb.ts';

/**
 * A change set to apply to a store built from a bundle (docs/skb-format.md, "Change sets"), as read
 * and validated by `readChangeSet` of `@weft/skb`. Applied in this order: deletions, then node
 * upserts, then edge upserts — so deleting a node and upserting it in one change set recreates it
 * without its old edges (the way to change a node's type).
 */
export interface SkbChangeSet {
  /** Nodes to create or replace (name, aliases, text and props; the type of a kept node never changes). */
  readonly nodes: readonly SkbNode[];
  /** Edges to create; an edge that exists already (same src, type, dst) is left as it is. */
  readonly edges: readonly SkbEdge[];
  /** Nodes to delete with every edge that touches them; unknown ids are no-ops (a re-run succeeds). */
  readonly deleteNodes: readonly string[];
  /** Edges to delete; unknown edges are no-ops. */
  readonly deleteEdges: readonly SkbEdge[];
}
