import { createRetriever, type StackDefinition } from '@weft/core';
import { artifactName, type BalancedQuery, balancedQueries, collectExamples } from '@weft/kit';
import {
  LexicalPlanner,
  type LexicalPlannerModel,
  lexicalPlannerArtifact,
  trainLexicalPlanner,
} from '@weft/planner-lexical';
import {
  type TrainLinearRerankerReport,
  type LinearRerankExample,
  LinearReranker,
  linearRerankerArtifact,
  trainLinearReranker,
} from '@weft/reranker-linear';
import { QueryGraphPlanner, QueryGraphReranker } from '@weft/query-graph';
import type { PlannerV1, RetrievalContext, TrainingStepV1, TrainOptionsV1 } from '@weft/spec';
import { FieldTraverser } from '@weft/traverser-fields';
import type { StackEntry } from './stack-registry.ts';
import { builtinStackDescriptions } from './stack-listing.ts';

const name = 'default';
/**
 * The lexical planner the default stack's training fits: the graph-native stacks (HybGRAG, KAR,
 * MixRAG, PPR) read the same one, by this reference, rather than fitting their own.
 */
export const lexicalPlannerRef = lexicalPlannerArtifact.ref(artifactName(name, 'planner-lexical'));
/**
 * A planner on the model the default stack's training fits, for the stacks that read it by
 * `lexicalPlannerRef` rather than fit their own. `relationsSpelledInFull`: with no relation learned
 * from labelled queries, plan the relations whose names the question spells in full
 * (`relationsFromNames` with `minScore: 1`), for stacks that follow only the planned relations, which
 * a half-spelled name ("moves" → `gigantamax_move`) sends astray.
 */
export function sharedLexicalPlanner(
  options: { readonly relationsSpelledInFull?: boolean } = {},
): LexicalPlanner {
  return new LexicalPlanner({
    artifact: lexicalPlannerRef.name,
    ...(options.relationsSpelledInFull ? { relationsFromNames: { minScore: 1 } } : {}),
  });
}
/**
 * The default stack's planner as it links untrained (named and described anchors, relations whose
 * names the question spells): the linker whose anchors MoR's and FocusedRetriever's readings start
 * from, beside their schema planner's own. Untrained, so those stacks need no training of the
 * default's to read it.
 */
export function defaultLinker(): LexicalPlanner {
  return new LexicalPlanner({ minDescribedProbability, relationsFromNames });
}
const rerankerRef = linearRerankerArtifact.ref(artifactName(name, 'reranker-linear'));
const plannerArtifact = lexicalPlannerRef.name;
const rerankerArtifact = rerankerRef.name;

/**
 * Described anchors (`@weft/grounding`'s described reading) join the named ones at this probability:
 * untrained, on the val and train splits of three KBs, the Debian described set gained (train Hit@1
 * 31.9 → 40.4, val 34.8 → 30.4: +3 questions of 70) and no other set lost. Training keeps them only
 * when the stack does better with them on val.
 */
const minDescribedProbability = 0.2;

/**
 * Untrained and trained without labels, the relations a question follows are those whose names it
 * spells. Untrained stores, Hit@1 before → after on train / val: wn18rr (the first 300 of each)
 * 36 → 106 / 45 → 114; Pokémon hybrid and described train 22 → 21, 10 → 9 of 48 and 47; every
 * other split of WordNet, Pokémon and Debian (hybrid, described, text, synthesised text-only) equal.
 * Trained on the store: wn18rr val 52 → 58 of 300, Debian hybrid train / val 15 → 14 / 7 → 8, the
 * rest equal.
 */
const relationsFromNames = true;

/**
 * The question read as query graphs (`@weft/query-graph`) on the lexical planner's anchors: the
 * readings whose relation the question names and whose answers it barely describes ("a part of the
 * eye") are executed. Untrained, val Hit@1 without → with: everyday WordNet questions 16.7 → 63.3,
 * WordNet hybrid 59.6 → 55.8, Pokémon hybrid 57.9 → 63.2, Debian hybrid 90 → 90
 * (packages/query-graph/README.md has the rest).
 */
const readingQueryGraphs = (base: LexicalPlanner): PlannerV1 => new QueryGraphPlanner({ base });

/** Queries per set and split used in training: more cost time and teach the few weights little more. */
const trainPerSet = 300;
const valPerSet = 150;

function definition(
  context: RetrievalContext,
  planner: PlannerV1,
  reranker?: LinearReranker,
): StackDefinition {
  return {
    name,
    context,
    planner,
    traversers: [new FieldTraverser({ searchK: 100 })],
    rerankers: [
      ...(reranker ? [reranker] : []),
      // The question's exclusions ("(not documentation)") last: untrained, Debian hybrid train / val
      // Hit@1 70 → 80 / 90 → 100, every other set of three KBs equal.
      new QueryGraphReranker({ planFirst: false }),
    ],
    // The reranker sees the whole candidate pool, not the traverser's untrained top 100: a neighbour
    // of a named node with little text in common with the question must still reach it.
    candidateLimit: 300,
    llmBudget: 0,
  };
}

/** The stack's planner with a given model (described anchors on unless the model turns them off). */
function plannerOf(model: LexicalPlannerModel): PlannerV1 {
  return readingQueryGraphs(new LexicalPlanner({ model, minDescribedProbability, relationsFromNames }));
}

function withoutMentionModel(model: LexicalPlannerModel): LexicalPlannerModel {
  return { types: model.types, relations: model.relations };
}

/** The val figure of what training keeps: fitted or untrained weights. */
function chosenVal(report: TrainLinearRerankerReport): number {
  return report.chosen === 'fitted' ? Math.max(...report.tried.map((t) => t.val)) : report.untrained;
}

/** The stack without its reranker, on each query: the candidates the reranker learns to order. */
function collect(
  context: RetrievalContext,
  planner: PlannerV1,
  queries: readonly BalancedQuery[],
  label: string,
  options: TrainOptionsV1,
): Promise<LinearRerankExample[]> {
  return collectExamples(
    createRetriever(definition(context, planner)),
    queries,
    { ...options, limit: 300, label },
    ({ ranking, trace }, { query, weight }) =>
      trace.plan ? { candidates: ranking, plan: trace.plan, answers: query.answers, weight } : undefined,
  );
}

/**
 * The default stack's training: the lexical planner and the linear reranker, fitted together (the
 * planner's mention model is kept only when the whole stack does better with it on val).
 */
export const defaultTraining: TrainingStepV1 = {
  specificationVersion: 'v1',
  id: name,
  description: 'lexical planner (answer types, relations, mentions) and linear reranker weights',
  learnsFrom: ['labelled', 'synthesized'],
  reads: [],
  writes: [lexicalPlannerRef, rerankerRef],
  async doTrain(options) {
    const { context } = options;
    const train = balancedQueries(options.sets, 'train', trainPerSet);
    const val = balancedQueries(options.sets, 'val', valPerSet);
    // How people name a type or a relation cannot be synthesised: without labelled queries the
    // planner links mentions and plans the relations the question names by their edge types' names
    // only, and the reranker leaves the planned type alone.
    const labelled = options.sets.some((set) => !set.synthesized && set.train.length > 0);
    const synthesized = new Set(options.sets.filter((set) => set.synthesized).flatMap((set) => set.train));
    const plannerModel = await trainLexicalPlanner(
      context,
      train.map(({ query, weight }) => ({
        query: query.query,
        answers: query.answers,
        weight,
        ...(synthesized.has(query) ? { synthesized: true } : {}),
      })),
      {
        mentionModel: labelled,
        onProgress: (done, total) => options.onProgress?.('planner', done, total),
        ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
      },
    );
    // The mention model is kept only when the whole stack does better with it on val: WordNet's
    // labelled queries keep it (val 76.3 vs 71.4 without), the Pokémon KB's 48 drop it (39.6 vs 42.6;
    // with it, hybrid val Hit@1 fell 47.4 → 31.6). Without it first, so a tie keeps the simpler planner.
    // Then the described anchors likewise, with the chosen mention model: a tie keeps them.
    const fit = async (model: LexicalPlannerModel) => {
      const planner = plannerOf(model);
      const suffix = `${model.mentions ? ' (mention model)' : ''}${model.describedAnchors === false ? ' (named anchors only)' : ''}`;
      const trainExamples = await collect(context, planner, train, `train${suffix}`, options);
      const valExamples = await collect(context, planner, val, `val${suffix}`, options);
      const report = trainLinearReranker(trainExamples, valExamples, {
        ...(labelled ? {} : { exclude: ['targetType'] }),
      });
      return { model, report, val: chosenVal(report) };
    };
    const variants: LexicalPlannerModel[] = [withoutMentionModel(plannerModel)];
    if (plannerModel.mentions) variants.push(plannerModel);
    let chosen: { model: LexicalPlannerModel; report: TrainLinearRerankerReport; val: number } | undefined;
    const tried: { mentionModel: boolean; val: number }[] = [];
    for (const model of variants) {
      const fitted = await fit(model);
      tried.push({ mentionModel: model.mentions !== undefined, val: fitted.val });
      if (!chosen || fitted.val > chosen.val) chosen = fitted;
    }
    const namedOnly = await fit({ ...chosen!.model, describedAnchors: false });
    const describedVal = { with: chosen!.val, without: namedOnly.val };
    if (namedOnly.val > chosen!.val) chosen = namedOnly;
    const { model, report } = chosen!;
    await lexicalPlannerArtifact.save(context.artifacts, lexicalPlannerRef, model);
    await linearRerankerArtifact.save(context.artifacts, rerankerRef, report.model);
    const best = Math.max(...report.tried.map((t) => t.val));
    const mentionNote =
      tried.length > 1
        ? `, mention model ${model.mentions ? 'kept' : 'dropped'} (val ${tried[1]!.val.toFixed(1)} with, ${tried[0]!.val.toFixed(1)} without)`
        : '';
    const describedNote = `, described anchors ${model.describedAnchors === false ? 'dropped' : 'kept'} (val ${describedVal.with.toFixed(1)} with, ${describedVal.without.toFixed(1)} without)`;
    return {
      summary: `planner: ${labelled ? `${model.types.labels.length} answer types, ${model.relations.labels.length} relations` : `trained on ${train.length + val.length} queries synthesised from the store (no labelled ones, so mentions are linked and relations read from the edge types' names, but answer types and relations are not learned)`}${mentionNote}${describedNote}; reranker (${train.length} train, ${val.length} val queries): ${report.chosen} weights kept (val ${report.chosen === 'fitted' ? best.toFixed(1) : report.untrained.toFixed(1)} vs ${report.chosen === 'fitted' ? `untrained ${report.untrained.toFixed(1)}` : `fitted ${best.toFixed(1)}`}; mean of Hit@1 and MRR)`,
      details: {
        planner: {
          types: model.types.labels,
          relations: model.relations.labels,
          mentionModel: tried,
          describedAnchors: describedVal,
        },
        reranker: report,
      },
    };
  },
};

/**
 * The default stack: relation-aware retrieval with no LLM call. The lexical planner links the
 * query's mentions (and, trained, predicts answer types and relations); the field traverser gathers
 * candidates from the node's own document, its relation-aware document, dense similarity and the
 * neighbourhood of the named nodes, with every score; the linear reranker weighs them per query.
 * Untrained, it already uses the relations; `weft train` fits the planner and the weights on the
 * KB's own queries (labelled or synthesised) and keeps fitted weights only when they win on val.
 */
export const defaultStack: StackEntry = {
  name,
  description: builtinStackDescriptions['default'],
  create: (store) =>
    definition(
      store.context,
      readingQueryGraphs(
        new LexicalPlanner({ artifact: plannerArtifact, minDescribedProbability, relationsFromNames }),
      ),
      new LinearReranker({ artifact: rerankerArtifact }),
    ),
  training: [defaultTraining],
};
