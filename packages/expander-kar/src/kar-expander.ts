import type { Expansion, ExpanderV1, ExpandOptions } from '@weft/spec';
import { type ComposeOptions, composeExpansion } from './compose-expansion.ts';
import { type GatherOptions, gatherKnowledge } from './gather-knowledge.ts';

export interface KarExpanderOptions extends GatherOptions, ComposeOptions {
  readonly name?: string;
  /**
   * Where the expansion's knowledge comes from: the graph (default), or nothing (`none`, KAR's
   * "no KG" ablation: the question is returned as it is).
   */
  readonly knowledge?: 'graph' | 'none';
}

/**
 * KAR's knowledge-aware query expansion without an LLM (`ExpanderV1`): the entities the question
 * names, their neighbours up to two hops filtered by how well their documents match the question
 * (the top `k`), and an expansion composed from those neighbours' names and best-matching sentences,
 * weighted so that the question keeps most of the weight. The triples it used come back with it.
 * A question that names nothing is returned unchanged.
 */
export class KarExpander implements ExpanderV1 {
  readonly specificationVersion = 'v1';
  readonly name: string;
  private readonly options: KarExpanderOptions;

  constructor(options: KarExpanderOptions = {}) {
    this.name = options.name ?? 'kar';
    this.options = options;
  }

  async doExpand({ query, context }: ExpandOptions): Promise<Expansion> {
    if (this.options.knowledge === 'none') return { query, expansion: '', triples: [] };
    const knowledge = await gatherKnowledge(query, context, this.options);
    const composed = composeExpansion(query, knowledge, this.options);
    return { query: composed.query, expansion: composed.expansion, triples: knowledge.triples };
  }
}
