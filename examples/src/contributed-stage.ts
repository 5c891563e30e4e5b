// A stage contributed from outside Weft that takes part in `weft train`: a reranker that learns, per
// node type, how likely a candidate of that type is an answer, and a stack that uses it. It imports
// only published packages: the contracts (@weft/spec), the kit for implementers (@weft/kit) and the
// stages it builds on. `contributed-stage.test.ts` trains it with `trainStacks` beside the built-in
// stacks and checks that the stack reads back what its step stored.
//
// The training step declares what it learns from (labelled queries), the artifact of another step it
// reads (the default stack's lexical planner, which this stack plans with) and the artifact it writes.
// `trainStacks` fits the lexical planner first when the store lacks it, and never trains it twice.
import { createRetriever, type StackDefinition } from '@weft/core';
import { ArtifactCache, artifactName, balancedQueries, collectExamples, defineArtifact } from '@weft/kit';
import { LexicalPlanner } from '@weft/planner-lexical';
import type { Candidate, RerankerV1, RerankOptions, RetrievalContext, TrainingStepV1 } from '@weft/spec';
import { lexicalPlannerRef, type StackEntry } from '@weft/stacks';
import { TextSearchTraverser } from '@weft/traverser-text';

/** What the reranker learns: per node type, the share of its candidates that were answers. */
export interface TypePriorModel {
  readonly answerRate: Readonly<Record<string, number>>;
}

/** Bump the version whenever the model's shape or meaning changes: older stores then say "retrain". */
export const typePriorArtifact = defineArtifact<TypePriorModel>({ kind: 'example-type-prior', version: 1 });

export class TypePriorReranker implements RerankerV1 {
  readonly specificationVersion = 'v1';
  readonly name = 'type-prior';
  private readonly artifact: string;
  // Loaded once per store; a missing or stale model is a trace warning, never silence.
  private readonly models = new ArtifactCache(typePriorArtifact);

  constructor(options: { readonly artifact: string }) {
    this.artifact = options.artifact;
  }

  async doRerank({ candidates, limit, context }: RerankOptions): Promise<Candidate[]> {
    const model = await this.models.get(context, this.artifact);
    if (!model) return candidates.slice(0, limit);
    const nodes = await context.graph.doGetNodes(candidates.map((c) => c.id));
    return candidates
      .map((c, i) => ({ ...c, score: c.score * (0.5 + (model.answerRate[nodes[i]?.type ?? ''] ?? 0)) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, limit);
  }
}

const name = 'bm25-type-prior';
const priorRef = typePriorArtifact.ref(artifactName(name, 'type-prior'));

function stages(context: RetrievalContext, reranker?: TypePriorReranker): StackDefinition {
  return {
    name,
    context,
    planner: new LexicalPlanner({ artifact: lexicalPlannerRef.name }),
    traversers: [new TextSearchTraverser({ name: 'bm25' })],
    rerankers: reranker ? [reranker] : [],
    llmBudget: 0,
  };
}

export const typePriorTraining: TrainingStepV1 = {
  specificationVersion: 'v1',
  id: name,
  description: 'per node type, the share of candidates that were answers',
  learnsFrom: ['labelled'],
  reads: [lexicalPlannerRef],
  writes: [priorRef],
  async doTrain(options) {
    const { context, sets } = options;
    // The stack without the stage being fitted, on every set's train queries (balanced across sets).
    // `sets` holds the labelled sets only: what the step declares it learns from.
    const examples = await collectExamples(
      createRetriever(stages(context)),
      balancedQueries(sets, 'train', 200),
      { ...options, limit: 50, label: 'train' },
      ({ ranking }, { query, weight }) => ({ ranking, answers: new Set(query.answers), weight }),
    );
    const seen = new Map<string, { answers: number; all: number }>();
    for (const { ranking, answers, weight } of examples) {
      const nodes = await context.graph.doGetNodes(ranking.map((c) => c.id));
      for (const [i, candidate] of ranking.entries()) {
        const type = nodes[i]?.type ?? '';
        const count = seen.get(type) ?? { answers: 0, all: 0 };
        count.all += weight;
        if (answers.has(candidate.id)) count.answers += weight;
        seen.set(type, count);
      }
    }
    const answerRate = Object.fromEntries([...seen].map(([type, c]) => [type, c.answers / c.all]));
    await typePriorArtifact.save(context.artifacts, priorRef, { answerRate });
    return {
      summary: `answer rate by type from ${examples.length} queries: ${Object.entries(answerRate)
        .map(([type, rate]) => `${type} ${rate.toFixed(2)}`)
        .join(', ')}`,
    };
  },
};

/** Register it beside the built-in stacks: `createStackRegistry().register(typePriorStack)`. */
export const typePriorStack: StackEntry = {
  name,
  description: 'BM25 reranked by a learned answer rate per node type (an example of a contributed stage)',
  create: (store) => stages(store.context, new TypePriorReranker({ artifact: priorRef.name })),
  training: [typePriorTraining],
};
