import type { LinearModel } from '@weft/kit';
import type { MetapathKey } from './metapath.ts';
import type { NaiveBayesModel } from '@weft/kit';

/**
 * What `trainSchemaPlanner` fits on a bundle's train queries; stored as an artifact with the store
 * (see `schemaPlannerFormat`, whose version says which shape this is).
 */
export interface SchemaPlannerModel {
  /** In how many train queries each token occurs (query language vs. entity words). */
  readonly queryDocumentFrequency: Readonly<Record<string, number>>;
  readonly queryCount: number;
  /** Metapaths seen to reach answers in train queries. */
  readonly metapaths: readonly MetapathKey[];
  /** Query tokens → metapath. */
  readonly relation: NaiveBayesModel;
  /** Query tokens → node type of the answers. */
  readonly targetType: NaiveBayesModel;
  /** Scores (anchor node, metapath) hypotheses; features in `hypothesisFeatures` order. */
  readonly hypothesis: LinearModel;
}
