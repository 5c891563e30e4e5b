import { WeftError } from '@weft/core';
import { listQuerySets, readQuerySet } from '@weft/eval';
import { openBundle, synthesizeTextQueries } from '@weft/skb';
import type { TrainingSet } from './stack-registry.ts';

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
    const train = queries.filter((q) => q.split === 'train');
    const val = queries.filter((q) => q.split === 'val');
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
