import { WeftError } from '@weft/kit';
import type { RetrieverV1 } from '@weft/spec';
import {
  type DeferredStackEntry,
  type StackCreateOptions,
  type StackEntry,
  type StackListing,
  StackRegistry,
  type StackStore,
} from './stack-registry.ts';

/** Imports a stack's module and returns the stacks it defines. */
type StackModule = () => Promise<readonly StackEntry[]>;

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
  /** The module that defines it, imported when the stack is first built or trained. */
  readonly module: StackModule;
}

// Each method's stacks live in one module, imported when one of them is first used.
const baselines: StackModule = () => import('./baseline-stacks.ts').then((m) => m.baselineStacks);
const defaultStack: StackModule = () => import('./default-stack.ts').then((m) => [m.defaultStack]);
const mor: StackModule = () => import('./mor-stacks.ts').then((m) => m.morStacks);
const focused: StackModule = () => import('./focused-stacks.ts').then((m) => m.focusedStacks);
const hybgrag: StackModule = () => import('./hybgrag-stacks.ts').then((m) => m.hybgragStacks);
const kar: StackModule = () => import('./kar-stacks.ts').then((m) => m.karStacks);
const mixrag: StackModule = () => import('./mixrag-stacks.ts').then((m) => m.mixragStacks);
const ppr: StackModule = () => import('./ppr-stack.ts').then((m) => [m.pprStack]);

/**
 * Weft's own stacks, in listing order: the one list that the registry, the stacks' descriptions
 * (`builtinStackDescriptions`), the stack tables of README.md and packages/stacks/README.md
 * (`stack-table.test.ts` checks them) and the results generator (devkit/results) read. A new stack
 * is one entry here and its module (`./dev new … --stack <name>` writes both).
 */
const builtinStackSources = [
  {
    name: 'bm25',
    description: 'BM25 over the documents (name, aliases, text) of the target types',
    trains: false,
    baseline: true,
    module: baselines,
  },
  {
    name: 'bm25-rel',
    description:
      'relation-aware BM25: one field of each node’s document plus its neighbours’ names by relation; no training',
    trains: false,
    baseline: true,
    module: baselines,
  },
  {
    name: 'vector',
    description: "cosine similarity of the store's embeddings of the target types",
    trains: false,
    baseline: true,
    module: baselines,
  },
  {
    name: 'hybrid-rrf',
    description: 'reciprocal rank fusion (k = 60) of bm25 and vector',
    trains: false,
    baseline: true,
    module: baselines,
  },
  {
    name: 'default',
    description:
      'relation-aware BM25 fields + dense + adjacency to named and described nodes, query-adaptive linear ranker; no LLM (trainable)',
    trains: true,
    module: defaultStack,
  },
  {
    name: 'mor-offline',
    description:
      "MoR's pipeline offline: schema planner, mixed traversal (paths intersected, union fallback), trajectory reranker; no LLM",
    trains: true,
    module: mor,
  },
  {
    name: 'focused-offline',
    description:
      "FocusedRetriever's pipeline offline: schema planner, constraint grounding with growing anchor candidates, text fill; no LLM",
    trains: false,
    module: focused,
  },
  {
    name: 'hybgrag-offline',
    description:
      "HybGRAG without an LLM: router on the lexical planner's anchors and relations, retriever bank (text / ego-graph intersection), rule-based critic, ≤ 4 rounds",
    trains: true,
    module: hybgrag,
  },
  {
    name: 'hybgrag',
    description:
      'HybGRAG: LLM router (few-shot from train), retriever bank, LLM critic (validator + commentor), ≤ 4 rounds, ≤ 14 calls; offline without a model',
    trains: true,
    llm: true,
    module: hybgrag,
  },
  {
    name: 'kar-offline',
    description:
      "KAR without an LLM: linked entities' neighbours filtered by their documents' similarity to the question, expansion composed from them (weighted), BM25",
    trains: true,
    module: kar,
  },
  {
    name: 'kar',
    description:
      'KAR: the LLM writes 3 expansions from the question and filtered document triples (one call), BM25 over the expanded question; offline without a model',
    trains: false,
    llm: true,
    module: kar,
  },
  {
    name: 'mor',
    description:
      'MoR with an LLM planner: typed reasoning paths grounded on the schema, asked only when the offline planner is unsure (--llm-when); mixed traversal, trajectory reranker; offline without a model',
    trains: true,
    llm: true,
    module: mor,
  },
  {
    name: 'focused',
    description:
      'FocusedRetriever: the LLM writes Cypher (read-only, parsed and grounded, never run), constraint grounding, listwise LLM reranker; offline without a model',
    trains: false,
    llm: true,
    module: focused,
  },
  {
    name: 'mixrag-offline',
    description:
      'MixRAG offline: entity, relation (verbalised triples) and subgraph (prize-collecting Steiner tree) experts, mixed by a learned query gate; no LLM (trainable)',
    trains: true,
    module: mixrag,
  },
  {
    name: 'mixrag',
    description:
      'MixRAG with an LLM gate: the model weighs the entity, relation and subgraph experts per query (learned gate without a model)',
    trains: false,
    llm: true,
    module: mixrag,
  },
  {
    name: 'ppr',
    description:
      'Personalized PageRank from the named nodes and the best text matches (push, bounded on hubs), text-rescored and fused with BM25 (counted twice); no LLM',
    trains: false,
    module: ppr,
  },
  // ./dev new … --stack <name> adds a stack above this line.
] as const satisfies readonly BuiltinStackSource[];

/** A built-in stack's name. */
export type BuiltinStackName = (typeof builtinStackSources)[number]['name'];

/** A built-in stack as the registry lists it: named, described and classified before its code is imported. */
export interface BuiltinStackListing extends DeferredStackEntry {
  readonly name: BuiltinStackName;
  /** Its stages ask the language model of `--model` (each falls back offline without one). */
  readonly llm: boolean;
  /** A yardstick every other stack is measured against (bm25, bm25-rel, vector, hybrid-rrf). */
  readonly baseline: boolean;
}

/** A built-in stack, imported from its module when first built or trained. */
function listing(source: (typeof builtinStackSources)[number]): BuiltinStackListing {
  const { name, description, trains, module } = source;
  return {
    name,
    description,
    trains,
    llm: 'llm' in source,
    baseline: 'baseline' in source,
    load: async () => {
      const entry = (await module()).find((e) => e.name === name);
      if (!entry)
        throw new WeftError({ code: 'WEFT_NOT_FOUND', message: `stack "${name}" is not in its module` });
      return entry;
    },
  };
}

/**
 * Weft's own stacks, in listing order: the baselines, the default stack, then the method stacks,
 * offline and with an LLM (each method's stacks live in one module: `mor-stacks.ts`,
 * `focused-stacks.ts`, …, imported when the stack is first used).
 */
export function builtinStacks(): readonly BuiltinStackListing[] {
  return builtinStackSources.map(listing);
}

/** A registry holding `entries` (default: the built-in stacks); extend it with `register`. */
export function createStackRegistry(entries: readonly StackListing[] = builtinStacks()): StackRegistry {
  return new StackRegistry(entries);
}

/** Builds a named stack over a store, from `registry` (default: the built-in stacks). */
export function createStack(
  name: string,
  store: StackStore,
  options: StackCreateOptions & { readonly registry?: StackRegistry } = {},
): Promise<RetrieverV1> {
  const { registry, ...create } = options;
  return (registry ?? createStackRegistry()).create(name, store, create);
}
