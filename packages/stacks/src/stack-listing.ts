// The built-in stacks' listing as data: it imports nothing, so that the stacks' modules can quote
// their descriptions from it while `builtin-stacks.ts` imports those modules when first used.

/** One built-in stack as the listing below writes it. */
interface BuiltinStackSource {
  readonly name: string;
  /** One line for `--help`, `GET /stacks` and the READMEs' stack tables. */
  readonly description: string;
  /** The loaded entry has training steps (`weft train` fits it); the registry checks it. */
  readonly trains: boolean;
  /** Its stages ask the language model of `--model` (each falls back offline without one). */
  readonly llm?: true;
  /** A yardstick every other stack is measured against: a plain search, no plan. */
  readonly baseline?: true;
  /**
   * The module that defines it (its file name in this folder, without `.ts`), imported when the
   * stack is first built or trained: `builtin-stacks.ts` has a loader of each.
   */
  readonly module: string;
}

/**
 * Weft's own stacks, in listing order: the one list that the registry (`builtin-stacks.ts`), the
 * stacks' descriptions (`builtinStackDescriptions`), the stack tables of README.md and
 * packages/stacks/README.md (`stack-table.test.ts` checks them) and the results generator
 * (devkit/results) read. A new stack is one entry here and its module (with a new module, its
 * loader in `builtin-stacks.ts`; `./dev new … --stack <name>` writes all three).
 */
export const builtinStackListing = [
  {
    name: 'bm25',
    description: 'BM25 over the documents (name, aliases, text) of the target types',
    trains: false,
    baseline: true,
    module: 'baseline-stacks',
  },
  {
    name: 'bm25-rel',
    description:
      'relation-aware BM25: one field of each node’s document plus its neighbours’ names by relation; no training',
    trains: false,
    baseline: true,
    module: 'baseline-stacks',
  },
  {
    name: 'vector',
    description: "cosine similarity of the store's embeddings of the target types",
    trains: false,
    baseline: true,
    module: 'baseline-stacks',
  },
  {
    name: 'hybrid-rrf',
    description: 'reciprocal rank fusion (k = 60) of bm25 and vector',
    trains: false,
    baseline: true,
    module: 'baseline-stacks',
  },
  {
    name: 'default',
    description:
      'relation-aware BM25 fields + dense + adjacency to named and described nodes, query-adaptive linear ranker; no LLM (trainable)',
    trains: true,
    module: 'default-stack',
  },
  {
    name: 'mor-offline',
    description:
      "MoR's pipeline offline: schema planner, mixed traversal (paths intersected, union fallback), trajectory reranker; no LLM",
    trains: true,
    module: 'mor-stacks',
  },
  {
    name: 'focused-offline',
    description:
      "FocusedRetriever's pipeline offline: schema planner, constraint grounding with growing anchor candidates, text fill; no LLM",
    trains: false,
    module: 'focused-stacks',
  },
  {
    name: 'hybgrag-offline',
    description:
      "HybGRAG without an LLM: router on the lexical planner's anchors and relations, retriever bank (text / ego-graph intersection), rule-based critic, ≤ 4 rounds",
    trains: true,
    module: 'hybgrag-stacks',
  },
  {
    name: 'hybgrag',
    description:
      'HybGRAG: LLM router (few-shot from train), retriever bank, LLM critic (validator + commentor), ≤ 4 rounds, ≤ 14 calls; offline without a model',
    trains: true,
    llm: true,
    module: 'hybgrag-stacks',
  },
  {
    name: 'kar-offline',
    description:
      "KAR without an LLM: linked entities' neighbours filtered by their documents' similarity to the question, expansion composed from them (weighted), BM25",
    trains: true,
    module: 'kar-stacks',
  },
  {
    name: 'kar',
    description:
      'KAR: the LLM writes 3 expansions from the question and filtered document triples (one call), BM25 over the expanded question; offline without a model',
    trains: false,
    llm: true,
    module: 'kar-stacks',
  },
  {
    name: 'mor',
    description:
      'MoR with an LLM planner: typed reasoning paths grounded on the schema, asked only when the offline planner is unsure (--llm-when); mixed traversal, trajectory reranker; offline without a model',
    trains: true,
    llm: true,
    module: 'mor-stacks',
  },
  {
    name: 'focused',
    description:
      'FocusedRetriever: the LLM writes Cypher (read-only, parsed and grounded, never run), constraint grounding, listwise LLM reranker; offline without a model',
    trains: false,
    llm: true,
    module: 'focused-stacks',
  },
  {
    name: 'mixrag-offline',
    description:
      'MixRAG offline: entity, relation (verbalised triples) and subgraph (prize-collecting Steiner tree) experts, mixed by a learned query gate; no LLM (trainable)',
    trains: true,
    module: 'mixrag-stacks',
  },
  {
    name: 'mixrag',
    description:
      'MixRAG with an LLM gate: the model weighs the entity, relation and subgraph experts per query (learned gate without a model)',
    trains: false,
    llm: true,
    module: 'mixrag-stacks',
  },
  {
    name: 'ppr',
    description:
      'Personalized PageRank from the named nodes and the best text matches (push, bounded on hubs), text-rescored and fused with BM25 (counted twice); no LLM',
    trains: false,
    module: 'ppr-stack',
  },
  // ./dev new … --stack <name> adds a stack above this line.
] as const satisfies readonly BuiltinStackSource[];

/** A built-in stack's name. */
export type BuiltinStackName = (typeof builtinStackListing)[number]['name'];

/** A module of built-in stacks, as the listing names it. */
export type BuiltinStackModule = (typeof builtinStackListing)[number]['module'];

/**
 * What listings (`weft --help`, `GET /stacks`) say of each built-in stack: the descriptions of the
 * listing above, by name, for the stacks' modules to quote.
 */
export const builtinStackDescriptions: Readonly<Record<BuiltinStackName, string>> = Object.fromEntries(
  builtinStackListing.map((stack) => [stack.name, stack.description]),
) as Record<BuiltinStackName, string>;
