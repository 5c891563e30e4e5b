import type { RetrievalContext } from '../retrieval-context.ts';

/** A fact used for an expansion, e.g. (Nikon F-mount, compatible with, Nikon D850). */
export interface ExpansionTriple {
  readonly subject: string;
  readonly relation: string;
  readonly object: string;
}

export interface Expansion {
  /** The query to use from here on (the original plus the expansion, typically). */
  readonly query: string;
  /** What was added. */
  readonly expansion: string;
  readonly triples: readonly ExpansionTriple[];
}

export interface ExpandOptions {
  readonly query: string;
  readonly context: RetrievalContext;
}

/** Rewrites a query with knowledge from the graph (KAR). */
export interface ExpanderV1 {
  readonly specificationVersion: 'v1';
  readonly name: string;
  doExpand(options: ExpandOptions): Promise<Expansion>;
}
