import { artifactName, balancedQueries, spread } from '@weft/kit';
import { schemaPlannerArtifact, trainSchemaPlanner } from '@weft/planner-schema';
import type { TrainingStepV1 } from '@weft/spec';

/**
 * The schema planner's model, read by the offline halves of MoR and FocusedRetriever (and by their
 * LLM stacks' fallbacks): it depends on the store's relational train queries only, not on the
 * traverser or reranker after it, so one step fits it for all of them. Stores trained before this
 * step had a name kept it under `offline.planner-schema`, which still loads.
 */
export const schemaPlannerRef = schemaPlannerArtifact.ref(artifactName('planner-schema', 'model'), [
  'offline.planner-schema',
]);

/** Train queries per set the planner learns from: cues saturate quickly, graph walks cost time. */
const trainPerSet = 500;
const valPerSet = 120;

export const schemaPlannerTraining: TrainingStepV1 = {
  specificationVersion: 'v1',
  id: 'planner-schema',
  description: "the schema planner's metapaths, cue words and hypothesis weights (relational sets only)",
  learnsFrom: ['labelled', 'synthesized'],
  reads: [],
  writes: [schemaPlannerRef],
  async doTrain(options) {
    const relational = options.sets.filter((set) => !set.textOnly);
    // Every set weighs as much as the largest: a small set's phrasing must still teach its relations.
    const train = balancedQueries(relational, 'train', trainPerSet);
    const val = relational.flatMap((set) => spread(set.val, valPerSet));
    const model = await trainSchemaPlanner(
      options.context,
      train.map((t) => t.query),
      val,
      {
        weights: train.map((t) => t.weight),
        onProgress: (done, total) => options.onProgress?.('planner', done, total),
      },
    );
    await schemaPlannerArtifact.save(options.context.artifacts, schemaPlannerRef, model);
    return {
      summary: `planner: ${model.metapaths.length} metapaths from ${train.length} train queries`,
      details: { metapaths: model.metapaths.length },
    };
  },
};
