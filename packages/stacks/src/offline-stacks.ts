import { artifactName, createRetriever, type StackDefinition } from '@weft/core';
import {
  loadSchemaPlannerModel,
  SchemaPlanner,
  type SchemaPlannerModel,
  trainSchemaPlanner,
} from '@weft/planner-schema';
import { type RerankExample, TrajectoryReranker, trainTrajectoryReranker } from '@weft/reranker-trajectory';
import type { ArtifactStore, RetrievalContext, SkbQuery, TraverserV1 } from '@weft/spec';
import { FocusedTraverser } from '@weft/traverser-focused';
import { MixedTraverser } from '@weft/traverser-mor';
import { spread } from './spread.ts';
import type { StackEntry, StackStore, StackTrainOptions, StackTrainReport } from './stack-registry.ts';

/**
 * The offline hybrid stacks: no LLM call anywhere. A schema-aware planner links the query's
 * mentions and picks metapaths; MoR-style mixed traversal or FocusedRetriever-style grounding finds
 * candidates with their trajectories; a trajectory reranker fitted on train queries orders them.
 */

/**
 * The planner's artifact, one for the offline method stacks: its model depends on the store's
 * relational train queries only, not on the traverser or reranker after it, so `weft train` fits it
 * once (the first stack trains it, the other reuses it) and both read the same one.
 * The stack part of the name says that it belongs to all of them rather than to one.
 */
const plannerArtifact = artifactName('offline', 'planner-schema');

/** Train queries per set used to fit the reranker (the rest would only cost time). */
const rerankTrainPerSet = 200;
const rerankValPerSet = 120;
/** Train queries per set the planner learns from: cues saturate quickly, graph walks cost time. */
const plannerTrainPerSet = 500;

function withArtifacts(context: RetrievalContext, artifacts: ArtifactStore): RetrievalContext {
  return { ...context, artifacts };
}

/** Fits the planner once per `weft train` run; later stacks reuse it. */
async function ensurePlanner(
  store: StackStore,
  options: StackTrainOptions,
): Promise<{ model: SchemaPlannerModel; summary: string }> {
  const existing = await loadSchemaPlannerModel(options.artifacts, plannerArtifact);
  if (existing.status === 'loaded') return { model: existing.value, summary: 'planner reused' };
  const relational = options.sets.filter((set) => !set.textOnly);
  const perSet = relational.map((set) => spread(set.train, plannerTrainPerSet));
  const train = perSet.flat();
  // Every set weighs as much as the largest: a small set's phrasing must still teach its relations.
  const largest = Math.max(1, ...perSet.map((s) => s.length));
  const weights = perSet.flatMap((s) => s.map(() => largest / Math.max(1, s.length)));
  const val = relational.flatMap((set) => spread(set.val, rerankValPerSet));
  const model = await trainSchemaPlanner(withArtifacts(store.context, options.artifacts), train, val, {
    artifact: plannerArtifact,
    weights,
    onProgress: (done, total) => options.onProgress?.('planner', done, total),
  });
  return {
    model,
    summary: `planner: ${model.metapaths.length} metapaths from ${train.length} train queries`,
  };
}

/**
 * Runs the stack without its rerankers on each set's queries. Every set weighs as much as the
 * largest, so the reranker (and the val figure that picks its settings) serves all of them.
 */
async function collect(
  definition: StackDefinition,
  sets: readonly { readonly queries: readonly SkbQuery[]; readonly gateOnly: boolean }[],
  label: string,
  options: StackTrainOptions,
): Promise<RerankExample[]> {
  const retriever = createRetriever({ ...definition, rerankers: [] });
  const largest = Math.max(1, ...sets.map((s) => s.queries.length));
  const total = sets.reduce((n, s) => n + s.queries.length, 0);
  const out: RerankExample[] = [];
  for (const { queries, gateOnly } of sets) {
    const weight = largest / Math.max(1, queries.length);
    for (const query of queries) {
      options.abortSignal?.throwIfAborted();
      const { ranking, trace } = await retriever.doRetrieve({ query: query.query, limit: 100 });
      out.push({
        candidates: ranking,
        answers: query.answers,
        weight,
        ...(gateOnly ? { gateOnly } : {}),
        query: query.query,
        ...(trace.plan ? { plan: trace.plan } : {}),
      });
      options.onProgress?.(label, out.length, total);
    }
  }
  return out;
}

function mixedStack(name: string, combine: 'sum' | 'intersect'): StackEntry {
  // Each mixed stack fits its own reranker: the candidates it learns from are its traverser's.
  const artifact = artifactName(name, 'reranker-trajectory');
  const build = (
    context: RetrievalContext,
    planner: SchemaPlanner,
    reranker: TrajectoryReranker,
  ): StackDefinition => ({
    name,
    context,
    planner,
    traversers: [new MixedTraverser({ name: 'mor', combine })],
    rerankers: [reranker],
    llmBudget: 0,
  });
  return {
    name,
    description:
      combine === 'sum'
        ? 'offline hybrid (best on val): schema planner, mixed traversal with summed path evidence, trajectory reranker; no LLM'
        : "MoR's pipeline offline: schema planner, mixed traversal (paths intersected, union fallback), trajectory reranker; no LLM",
    create: (store) =>
      build(
        store.context,
        new SchemaPlanner({ artifact: plannerArtifact }),
        new TrajectoryReranker({ artifact }),
      ),
    async train(store, options): Promise<StackTrainReport> {
      const planner = await ensurePlanner(store, options);
      const context = withArtifacts(store.context, options.artifacts);
      const definition = build(
        context,
        new SchemaPlanner({ model: planner.model }),
        new TrajectoryReranker({ artifact }),
      );
      // Text-only sets teach the route gate only (see RerankExample.gateOnly).
      const train = options.sets.map((set) => ({
        queries: spread(set.train, rerankTrainPerSet),
        gateOnly: set.textOnly === true,
      }));
      const val = options.sets.map((set) => ({
        queries: spread(set.val, rerankValPerSet),
        gateOnly: set.textOnly === true,
      }));
      const trainExamples = await collect(definition, train, `${name} train`, options);
      const valExamples = await collect(definition, val, `${name} val`, options);
      const result = await trainTrajectoryReranker(context, trainExamples, valExamples, { artifact });
      const best = result.val[0]!;
      const gate = result.gate
        ? `; route gate ${result.gate.kept ? `kept (${result.gate.mode})` : 'dropped'} (val Hit@1 ${result.gate.hit1.toFixed(1)} vs ${result.gate.withoutGate.hit1.toFixed(1)} without, text route ${result.gate.textRoute.toFixed(0)}%)`
        : '';
      return {
        summary: `${planner.summary}; reranker fitted on ${trainExamples.filter((e) => !e.gateOnly).length} queries (+${trainExamples.filter((e) => e.gateOnly).length} gate-only), val Hit@1 ${best.hit1.toFixed(1)} MRR ${best.mrr.toFixed(1)} (${best.objective}, l2 ${best.l2}${best.structureFirst ? ', structure first' : ''})${gate}`,
        details: {
          planner: { metapaths: planner.model.metapaths.length },
          reranker: result.val,
          ...(result.gate ? { gate: result.gate } : {}),
        },
      };
    },
  };
}

const focused: StackEntry = {
  name: 'focused-offline',
  description:
    "FocusedRetriever's pipeline offline: schema planner, constraint grounding with growing anchor candidates, text fill; no LLM",
  create: (store) => ({
    name: 'focused-offline',
    context: store.context,
    planner: new SchemaPlanner({ artifact: plannerArtifact }),
    traversers: [new FocusedTraverser({ alphaByConfidence: true }) as TraverserV1],
    llmBudget: 0,
  }),
  async train(store, options) {
    const planner = await ensurePlanner(store, options);
    return { summary: planner.summary };
  },
};

export const offlineStacks: readonly StackEntry[] = [mixedStack('mor-offline', 'intersect'), focused];
