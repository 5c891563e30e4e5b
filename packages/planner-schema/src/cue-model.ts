import { NaiveBayes, type NaiveBayesModel, naiveBayesProbabilities } from '@weft/kit';

/**
 * Fits the kit's naive Bayes on examples that may carry several labels with weights (a query whose
 * answers are reached by two relations counts half for each). Labels are kept in name order.
 */
export function fitCueModel(
  examples: readonly {
    readonly tokens: readonly string[];
    readonly labels: Readonly<Record<string, number>>;
  }[],
): NaiveBayesModel {
  const model = new NaiveBayes();
  for (const example of examples)
    for (const [label, weight] of Object.entries(example.labels)) model.add(label, example.tokens, weight);
  return model.model({ sortLabels: true });
}

/** Posterior per label; the priors are the plain shares of the training weight. */
export function predictCues(model: NaiveBayesModel, tokens: readonly string[]): Map<string, number> {
  return naiveBayesProbabilities(model, tokens, { priorCount: 0 });
}
