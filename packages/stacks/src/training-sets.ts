import { stableHash, WeftError } from '@weft/kit';
import { listQuerySets, readQuerySet, type SynthesizeQueriesOptions, synthesizeQueries } from '@weft/eval';
import { openBundle, synthesizeTextQueries } from '@weft/skb';
import type { StackStore, TrainingSet } from './stack-registry.ts';

/**
 * The labelled training material of a bundle: the named query sets (or every set with a train
 * split) as train/val pairs. Naming a set without a train split is an error.
 */
export async function loadTrainingSets(
  bundle: string,
  names: readonly string[] = [],
): Promise<TrainingSet[]> {
  const chosen = names.length ? names : await listQuerySets(bundle);
  const sets: TrainingSet[] = [];
  for (const name of chosen) {
    const queries = await readQuerySet(bundle, name);
    let train = queries.filter((q) => q.split === 'train');
    let val = queries.filter((q) => q.split === 'val');
    // Settings are chosen on val: a set without one lends a fifth of its train split (by a stable
    // hash of the query id), so nothing fitted is kept without having been checked on held-out queries.
    if (val.length === 0 && train.length >= 10) {
      val = train.filter((q) => stableHash(q.id, 17) % 5 === 0);
      train = train.filter((q) => stableHash(q.id, 17) % 5 !== 0);
    }
    if (train.length === 0) {
      if (names.length)
        throw new WeftError({
          code: 'WEFT_BAD_INPUT',
          message: `query set "${name}" of ${bundle} has no train split`,
        });
      continue;
    }
    sets.push({ name, train, val });
  }
  return sets;
}

/** Text-only queries made from a bundle's node descriptions (see `synthesizeTextQueries`). */
export async function synthesizedTextSet(bundle: string, count: number): Promise<TrainingSet> {
  const queries = await synthesizeTextQueries(await openBundle(bundle), { count });
  return {
    name: 'text (synthesised)',
    train: queries.filter((q) => q.split === 'train'),
    val: queries.filter((q) => q.split === 'val'),
    textOnly: true,
    synthesized: true,
  };
}

/**
 * Training material from the store alone (`synthesizeQueries`): relational queries naming a node,
 * relational ones describing it, and text-only ones, each a set with train and val splits (the synthesised test split is left out: it is for
 * `weft synth-queries`, a benchmark, not for fitting).
 */
export async function synthesizedSets(
  store: StackStore,
  options: SynthesizeQueriesOptions = {},
): Promise<TrainingSet[]> {
  const { hybrid, described, text } = await synthesizeQueries(store.context, options);
  const set = (name: string, queries: typeof hybrid, textOnly: boolean): TrainingSet => ({
    name,
    train: queries.filter((q) => q.split === 'train'),
    val: queries.filter((q) => q.split === 'val'),
    synthesized: true,
    ...(textOnly ? { textOnly } : {}),
  });
  return [
    set('hybrid (synthesised)', hybrid, false),
    set('described (synthesised)', described, false),
    set('text (synthesised)', text, true),
  ].filter((s) => s.train.length > 0);
}
