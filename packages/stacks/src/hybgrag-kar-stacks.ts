import { artifactName, createRetriever, reciprocalRankFusion, type StackDefinition } from '@weft/core';
import { LlmCritic, RuleCritic } from '@weft/critic-hybgrag';
import { KarExpander, LlmKarExpander } from '@weft/expander-kar';
import {
  type ExampleCandidate,
  fitRouterExamples,
  HybgragRouter,
  LlmHybgragRouter,
  routeOf,
  routerAction,
  saveRouterExamples,
} from '@weft/planner-hybgrag';
import { LexicalPlanner, lexicalPlannerArtifact } from '@weft/planner-lexical';
import type { RetrievalContext, TraverserV1 } from '@weft/spec';
import { RetrieverBank } from '@weft/traverser-bank';
import { TextSearchTraverser, VectorSearchTraverser } from '@weft/traverser-text';
import { defaultStack } from './default-stack.ts';
import { spread } from './spread.ts';
import {
  type StackCreateOptions,
  type StackEntry,
  type StackStore,
  type StackTrainOptions,
  stageTimeout,
} from './stack-registry.ts';

/**
 * HybGRAG (a retriever bank driven by a router and refined with a critic's feedback) and KAR
 * (knowledge-aware query expansion), each offline and with an LLM. The offline variants make no
 * model call; the LLM variants take `StackCreateOptions.languageModel` and fall back to their
 * offline halves without one (the trace says so).
 */

/** The lexical planner the default stack trains: anchors, answer types and relations for both methods. */
const lexicalPlanner = artifactName('default', 'planner-lexical');
/** Few-shot examples of the LLM router, chosen from the train split by `weft train`. */
const routerExamples = artifactName('hybgrag', 'planner-hybgrag');

/** HybGRAG's loop: at most 4 rounds; the last one replays the best critiqued round. */
const hybgragRounds = 4;
/** HybGRAG's cap on model calls per question. */
const hybgragBudget = 14;
/** Train questions per set the router's examples are chosen from. */
const examplesPerSet = 60;

const linker = () => new LexicalPlanner({ artifact: lexicalPlanner });

function withModel(store: StackStore, options: StackCreateOptions): RetrievalContext {
  return { ...store.context, ...(options.languageModel ? { languageModel: options.languageModel } : {}) };
}

function hybgragOffline(context: RetrievalContext, rounds = hybgragRounds): StackDefinition {
  return {
    name: 'hybgrag-offline',
    context,
    planner: new HybgragRouter({ base: linker(), maxRounds: rounds }),
    traversers: [new RetrieverBank()],
    ...(rounds > 1 ? { critic: new RuleCritic() } : {}),
    maxRounds: rounds,
    llmBudget: 0,
  };
}

/** Fits the lexical planner (and the rest of the default stack) when this run has not yet. */
async function ensureLexicalPlanner(store: StackStore, options: StackTrainOptions): Promise<string> {
  const stored = await options.artifacts.get(lexicalPlanner);
  const envelope = stored as { kind?: string; version?: number } | undefined;
  if (envelope?.kind === lexicalPlannerArtifact.kind && envelope.version === lexicalPlannerArtifact.version)
    return 'lexical planner reused from the default stack';
  const report = await defaultStack.train!(store, options);
  return `default stack fitted first (${report.summary})`;
}

/** A stack's text and dense retrieval of the (expanded) question, fused when the store has vectors. */
function finalRetrieval(
  context: RetrievalContext,
  dense: boolean,
): Pick<StackDefinition, 'traversers' | 'fusion'> {
  const text = new TextSearchTraverser({ name: 'bm25' });
  if (!dense || !context.vector || !context.embeddingModel) return { traversers: [text] };
  return {
    traversers: [text, new VectorSearchTraverser({ name: 'vector' }) as TraverserV1],
    fusion: reciprocalRankFusion({ k: 60 }),
  };
}

export const hybgragKarStacks: readonly StackEntry[] = [
  {
    name: 'hybgrag-offline',
    description:
      "HybGRAG without an LLM: router on the lexical planner's anchors and relations, retriever bank (text / ego-graph intersection), rule-based critic, ≤ 4 rounds",
    create: (store) => hybgragOffline(store.context),
    async train(store, options) {
      return { summary: await ensureLexicalPlanner(store, options) };
    },
  },
  {
    name: 'hybgrag',
    description:
      'HybGRAG: LLM router (few-shot from train), retriever bank, LLM critic (validator + commentor), ≤ 4 rounds, ≤ 14 calls; offline without a model',
    create: (store, options) => ({
      name: 'hybgrag',
      context: withModel(store, options),
      planner: new LlmHybgragRouter({
        base: linker(),
        maxRounds: hybgragRounds,
        artifact: routerExamples,
        ...stageTimeout(options),
      }),
      traversers: [new RetrieverBank()],
      critic: new LlmCritic({ fallback: new RuleCritic(), ...stageTimeout(options) }),
      maxRounds: hybgragRounds,
      llmBudget: Math.min(options.llmBudget ?? hybgragBudget, hybgragBudget),
    }),
    /**
     * Chooses the router's few-shot examples: train questions whose first offline route put a gold
     * answer first, of both modules. The lexical planner is the default stack's (fitted first when
     * this run has not fitted it).
     */
    async train(store, options) {
      const note = await ensureLexicalPlanner(store, options);
      const context: RetrievalContext = { ...store.context, artifacts: options.artifacts };
      const retriever = createRetriever(hybgragOffline(context, 1));
      const queries = options.sets
        .filter((set) => !set.synthesized)
        .flatMap((set) => spread(set.train, examplesPerSet));
      const candidates: ExampleCandidate[] = [];
      for (const query of queries) {
        options.abortSignal?.throwIfAborted();
        const { ranking, trace } = await retriever.doRetrieve({ query: query.query, limit: 10 });
        const route = routeOf(trace.plan);
        if (!route || !trace.plan) continue;
        candidates.push({
          query: query.query,
          action: routerAction(trace.plan, route.choice),
          correct: ranking[0] !== undefined && query.answers.includes(ranking[0].id),
        });
        options.onProgress?.('router examples', candidates.length, queries.length);
      }
      const examples = fitRouterExamples(candidates);
      await saveRouterExamples(options.artifacts, routerExamples, examples);
      return {
        summary: `${note}; ${examples.length} few-shot examples for the router (of ${candidates.filter((c) => c.correct).length} train questions routed right)`,
        details: { examples: examples.map((e) => ({ query: e.query, module: e.action.module })) },
      };
    },
  },
  {
    name: 'kar-offline',
    description:
      "KAR without an LLM: linked entities' neighbours filtered by their documents' similarity to the question, expansion composed from them (weighted), BM25",
    create: (store) => ({
      name: 'kar-offline',
      context: store.context,
      expander: new KarExpander({ linker: linker() }),
      // Chosen on val: dense retrieval of the expanded question lost to BM25 alone on both KBs.
      ...finalRetrieval(store.context, false),
      llmBudget: 0,
    }),
    async train(store, options) {
      return { summary: await ensureLexicalPlanner(store, options) };
    },
  },
  {
    name: 'kar',
    description:
      'KAR: the LLM writes 3 expansions from the question and filtered document triples (one call), BM25 + dense over the expanded question; offline without a model',
    create: (store, options) => {
      const context = withModel(store, options);
      return {
        name: 'kar',
        context,
        expander: new LlmKarExpander({ linker: linker(), ...stageTimeout(options) }),
        ...finalRetrieval(context, true),
        llmBudget: options.llmBudget ?? 1,
      };
    },
  },
];
