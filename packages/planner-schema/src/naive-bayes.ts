/** A multinomial naive Bayes text classifier, serialisable as JSON (a trained stage's artifact). */
export interface NaiveBayesModel {
  readonly labels: readonly string[];
  /** log P(label). */
  readonly logPrior: readonly number[];
  /** token → log P(token | label), one entry per label. */
  readonly logLikelihood: Readonly<Record<string, readonly number[]>>;
  /** log P(unseen token | label). */
  readonly logUnseen: readonly number[];
}

/**
 * Fits the classifier. Each example may carry several labels with weights (a query whose answers
 * are reached by two relations counts half for each).
 */
export function fitNaiveBayes(
  examples: readonly {
    readonly tokens: readonly string[];
    readonly labels: Readonly<Record<string, number>>;
  }[],
  options: { readonly smoothing?: number; readonly minLabelWeight?: number } = {},
): NaiveBayesModel {
  const alpha = options.smoothing ?? 0.5;
  const labelWeight = new Map<string, number>();
  for (const example of examples) {
    for (const [label, weight] of Object.entries(example.labels))
      labelWeight.set(label, (labelWeight.get(label) ?? 0) + weight);
  }
  const labels = [...labelWeight]
    .filter(([, w]) => w >= (options.minLabelWeight ?? 0))
    .map(([l]) => l)
    .sort();
  const index = new Map(labels.map((l, i) => [l, i]));
  const counts = new Map<string, number[]>();
  const totals = labels.map(() => 0);
  for (const example of examples) {
    for (const [label, weight] of Object.entries(example.labels)) {
      const i = index.get(label);
      if (i === undefined) continue;
      for (const token of example.tokens) {
        const row =
          counts.get(token) ??
          counts
            .set(
              token,
              labels.map(() => 0),
            )
            .get(token)!;
        row[i] = row[i]! + weight;
        totals[i] = totals[i]! + weight;
      }
    }
  }
  const vocabulary = counts.size + 1;
  const totalWeight = labels.reduce((s, l) => s + labelWeight.get(l)!, 0);
  const logLikelihood: Record<string, number[]> = {};
  for (const [token, row] of counts) {
    logLikelihood[token] = row.map((c, i) => Math.log((c + alpha) / (totals[i]! + alpha * vocabulary)));
  }
  return {
    labels,
    logPrior: labels.map((l) => Math.log(labelWeight.get(l)! / totalWeight)),
    logLikelihood,
    logUnseen: totals.map((t) => Math.log(alpha / (t + alpha * vocabulary))),
  };
}

/** Posterior probabilities per label (softmax of the log joint, tempered by the token count). */
export function predictNaiveBayes(model: NaiveBayesModel, tokens: readonly string[]): Map<string, number> {
  const known = tokens.filter((t) => model.logLikelihood[t] !== undefined);
  // Tokens are far from independent; dividing by a power of the count keeps posteriors from
  // collapsing to 0/1 on long queries.
  const temper = 1 / Math.sqrt(Math.max(1, known.length));
  const joint = model.labels.map((_, i) => {
    let sum = 0;
    for (const token of known) sum += model.logLikelihood[token]![i]!;
    return model.logPrior[i]! + temper * sum;
  });
  const max = Math.max(...joint);
  const exp = joint.map((j) => Math.exp(j - max));
  const total = exp.reduce((s, e) => s + e, 0);
  return new Map(model.labels.map((l, i) => [l, exp[i]! / total]));
}
