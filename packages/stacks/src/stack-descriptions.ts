/**
 * What listings (`weft --help`, `GET /stacks`) say of each built-in stack, kept apart from the stacks'
 * code so that a registry names and describes every stack without importing any (see `builtinStacks`).
 */
export const builtinStackDescriptions = {
  bm25: 'BM25 over the documents (name, aliases, text) of the target types',
  'bm25-rel':
    'relation-aware BM25: one field of each node’s document plus its neighbours’ names by relation; no training',
  vector: "cosine similarity of the store's embeddings of the target types",
  'hybrid-rrf': 'reciprocal rank fusion (k = 60) of bm25 and vector',
  default:
    'relation-aware BM25 fields + dense + adjacency to named and described nodes, query-adaptive linear ranker; no LLM (trainable)',
  'mor-offline':
    "MoR's pipeline offline: schema planner, mixed traversal (paths intersected, union fallback), trajectory reranker; no LLM",
  'focused-offline':
    "FocusedRetriever's pipeline offline: schema planner, constraint grounding with growing anchor candidates, text fill; no LLM",
  'hybgrag-offline':
    "HybGRAG without an LLM: router on the lexical planner's anchors and relations, retriever bank (text / ego-graph intersection), rule-based critic, ≤ 4 rounds",
  hybgrag:
    'HybGRAG: LLM router (few-shot from train), retriever bank, LLM critic (validator + commentor), ≤ 4 rounds, ≤ 14 calls; offline without a model',
  'kar-offline':
    "KAR without an LLM: linked entities' neighbours filtered by their documents' similarity to the question, expansion composed from them (weighted), BM25",
  kar: 'KAR: the LLM writes 3 expansions from the question and filtered document triples (one call), BM25 over the expanded question; offline without a model',
  mor: 'MoR with an LLM planner: typed reasoning paths grounded on the schema, asked only when the offline planner is unsure (--llm-when); mixed traversal, trajectory reranker; offline without a model',
  focused:
    'FocusedRetriever: the LLM writes Cypher (read-only, parsed and grounded, never run), constraint grounding, listwise LLM reranker; offline without a model',
  'mixrag-offline':
    'MixRAG offline: entity, relation (verbalised triples) and subgraph (prize-collecting Steiner tree) experts, mixed by a learned query gate; no LLM (trainable)',
  mixrag:
    'MixRAG with an LLM gate: the model weighs the entity, relation and subgraph experts per query (learned gate without a model)',
  ppr: 'Personalized PageRank from the named nodes and the best text matches (push, bounded on hubs), text-rescored and fused with BM25 (counted twice); no LLM',
} as const;

/** A built-in stack's name. */
export type BuiltinStackName = keyof typeof builtinStackDescriptions;
