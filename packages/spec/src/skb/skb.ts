/**
 * The SKB data model: a typed graph whose nodes carry documents (shared/SKB-FORMAT.md, version 1).
 */

export interface SkbNodeType {
  readonly name: string;
  readonly description?: string;
}

/** `from` / `to` are node type names or `'*'` (any type). One name may appear with several pairs. */
export interface SkbEdgeType {
  readonly name: string;
  readonly from: string;
  readonly to: string;
  readonly description?: string;
}

export interface SkbSchema {
  readonly name: string;
  readonly version: 1;
  readonly description?: string;
  readonly nodeTypes: readonly SkbNodeType[];
  readonly edgeTypes: readonly SkbEdgeType[];
  /** Node types that may be answers; absent means every type. */
  readonly targetTypes?: readonly string[];
}

export type SkbPropValue = string | number | boolean;

export interface SkbNode {
  readonly id: string;
  readonly type: string;
  readonly name: string;
  readonly aliases?: readonly string[];
  /** The node's document; may be empty. */
  readonly text: string;
  readonly props?: Readonly<Record<string, SkbPropValue>>;
}

/** Directed as written; traversals may follow it either way and say which. */
export interface SkbEdge {
  readonly src: string;
  readonly type: string;
  readonly dst: string;
}

export type SkbSplit = 'train' | 'val' | 'test';

export interface SkbQuery {
  readonly id: string;
  readonly query: string;
  /** Every node id that satisfies the query; all of the schema's target types. */
  readonly answers: readonly string[];
  readonly split: SkbSplit;
  /** Free-form; never shown to a retriever. */
  readonly meta?: Readonly<Record<string, unknown>>;
}
