import { artifactName, balancedQueries } from '@weft/kit';
import type { TrainingStepV1 } from '@weft/spec';
import {
  expertGateArtifact,
  type GateQuery,
  MixtureTraverser,
  trainMixtureGate,
} from '@weft/traverser-mixrag';
import { lexicalPlannerRef, sharedLexicalPlanner } from './default-stack.ts';
import { planReranker, readingPlanner, withPlanTraversers } from './query-graph-stages.ts';
import { relationAwareText } from './relation-aware-text.ts';
import type { StackCreateOptions, StackEntry, StackStore } from './stack-registry.ts';
import { builtinStackDescriptions } from './stack-listing.ts';

/**
 * MixRAG: entity, relation (verbalised triples) and subgraph (prize-collecting Steiner tree)
 * experts, mixed per query by a gate, learned offline or asked of an LLM.
 */

/**
 * The lexical planner's model that `weft train` fits for the default stack: MixRAG reads the same
 * one (mentions always; trained on labelled queries, the asked-for relations), so it needs no
 * planner of its own. Without labelled queries it plans the relations whose names the question
 * spells in full, and the untrained gate weighs the relation and subgraph experts as a question
 * names a relation (`untrainedWeights` of `@weft/traverser-mixrag`).
 */
const sharedPlanner = () => sharedLexicalPlanner({ relationsSpelledInFull: true });

/** The gate both MixRAG stacks read: `mixrag` falls back on it when its model does not answer. */
const gateRef = expertGateArtifact.ref(artifactName('mixrag', 'gate'));
const gateArtifact = gateRef.name;

/** Queries per set and split the gate learns from (each costs three experts and a planner run). */
const trainPerSet = 150;
const valPerSet = 80;

/** Fits the gate on the experts' outputs for train queries (settings chosen on val). */
const mixragTraining: TrainingStepV1 = {
  specificationVersion: 'v1',
  id: 'mixrag-offline',
  description: "the query gate that weighs MixRAG's entity, relation and subgraph experts",
  learnsFrom: ['labelled', 'synthesized'],
  reads: [lexicalPlannerRef],
  writes: [gateRef],
  async doTrain(options) {
    const { context } = options;
    // Every set weighs as much as the largest, so a small hand-written set is heard.
    const pick = (split: 'train' | 'val', perSet: number): GateQuery[] =>
      balancedQueries(options.sets, split, perSet).map(({ query, weight, set }) => ({
        query: query.query,
        answers: query.answers,
        set: set.name,
        weight,
      }));
    const result = await trainMixtureGate(
      context,
      new MixtureTraverser(relationAwareText(context)),
      sharedPlanner(),
      { train: pick('train', trainPerSet), val: pick('val', valPerSet) },
      {
        onProgress: (done, total) => options.onProgress?.('gate', done, total),
        ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
      },
    );
    await expertGateArtifact.save(context.artifacts, gateRef, result.model);
    const best = Math.max(...result.tried.map((t) => t.val));
    const weights = Object.entries(result.weightsBySet)
      .map(
        ([set, w]) =>
          `${set}: entity ${w.entity!.toFixed(2)} relation ${w.relation!.toFixed(2)} subgraph ${w.subgraph!.toFixed(2)}`,
      )
      .join('; ');
    return {
      summary: `gate ${result.chosen} (val ${result.chosen === 'fitted' ? best.toFixed(1) : result.untrained.toFixed(1)} vs ${result.chosen === 'fitted' ? `untrained weights ${result.untrained.toFixed(1)}` : `fitted ${best.toFixed(1)}`}; mean of MRR and Recall@20); mean expert weights on val — ${weights}`,
      details: { ...result, model: undefined },
    };
  },
};

function mixtureStack(name: 'mixrag-offline' | 'mixrag', llm: boolean): StackEntry {
  const build = (store: StackStore, options: StackCreateOptions) => ({
    name,
    context: {
      ...store.context,
      ...(llm && options.languageModel ? { languageModel: options.languageModel } : {}),
    },
    planner: readingPlanner(sharedPlanner()),
    ...withPlanTraversers({
      traversers: [
        new MixtureTraverser({ artifact: gateArtifact, llmGate: llm, ...relationAwareText(store.context) }),
      ],
    }),
    rerankers: [planReranker()],
    llmBudget: llm ? (options.llmBudget ?? 1) : 0,
  });
  return {
    name,
    description: builtinStackDescriptions[name],
    create: build,
    ...(llm ? {} : { training: [mixragTraining] }),
  };
}

export const mixragOfflineStack = mixtureStack('mixrag-offline', false);
export const mixragStack = mixtureStack('mixrag', true);

/** MixRAG, offline and with an LLM gate. */
export const mixragStacks: readonly StackEntry[] = [mixragOfflineStack, mixragStack];
