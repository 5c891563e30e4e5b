export interface FieldTraverserOptions {
  /** Shown in traces (default `'fields'`). */
  readonly name?: string;
  /** Nodes taken from each ranking (document, relation-aware document, dense); default: the limit. */
  readonly searchK?: number;
  /** Mentions below this specificity start no expansion (default 0.2). */
  readonly minSpecificity?: number;
  /**
   * Mentions below this share of the surest mention's specificity start no expansion (default 0.8):
   * a question that links many words (WordNet's link 7 a question, most of them common words) is
   * about its surest ones, and adjacency to a common word's namesake only adds noise.
   */
  readonly relativeSpecificity?: number;
  /** Nodes per mention expanded (default 5): a name shared by many nodes is not expanded for all. */
  readonly nodesPerMention?: number;
  /** Neighbours taken per expanded node (default 300): hubs are reached from the candidate side too. */
  readonly neighborsPerNode?: number;
  /** Neighbours of the mentions added as candidates, the best by document BM25 (default 100). */
  readonly structuralK?: number;
  /**
   * How many nodes the dense search returns (default 300, at least `searchK`). It also scores the
   * other candidates: one found beyond it gets the lowest score of the list, an upper bound of its
   * own. (An id-filtered dense search costs LanceDB an exact scan, ~60 ms on WordNet.)
   */
  readonly denseK?: number;
  /**
   * How many of the question's best matches over every node type, by own and relation-aware
   * document, count as nodes it may describe (default 50; 0 turns `neighbourText` off). Questions
   * describe the node they build on ("the library that implements SSH") more often than they name
   * it; its document matches, and its neighbours are the answers.
   */
  readonly describedK?: number;
  /**
   * Weight of a described node outside the schema's target types in `neighbourText`, relative to
   * one of a target type (default 1.5). No answer can be such a node, so the words that match it
   * are about the node the question builds on, never the answer's own description. Measured on the
   * val and train splits of Debian and Pokémon (WordNet has no such node): Hit@1 +1 question on
   * Debian described val and train, +3 on Debian hybrid train, no set lower (2: one lower).
   */
  readonly outsideTargetsWeight?: number;
}
