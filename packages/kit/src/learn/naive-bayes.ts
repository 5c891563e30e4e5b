/** What a fitted `NaiveBayes` stores: counts, so the model stays readable in the artifact. */
export interface NaiveBayesModel {
  readonly labels: readonly string[];
  /** Summed example weight per label. */
  readonly priors: readonly number[];
  /** Per label: word → summed weight. */
  readonly counts: readonly Readonly<Record<string, number>>[];
  readonly totals: readonly number[];
  readonly vocabulary: number;
}

/**
 * Multinomial naive Bayes over words with additive smoothing: `add` examples, then `model()`, then
 * `naiveBayesProbabilities`. The one naive Bayes of the lexical and the schema planner.
 */
export class NaiveBayes {
  private readonly labelIndex = new Map<string, number>();
  private readonly labels: string[] = [];
  private readonly priors: number[] = [];
  private readonly counts: Map<string, number>[] = [];
  private readonly totals: number[] = [];
  private readonly words = new Set<string>();

  add(label: string, words: readonly string[], weight = 1): void {
    let index = this.labelIndex.get(label);
    if (index === undefined) {
      index = this.labels.length;
      this.labelIndex.set(label, index);
      this.labels.push(label);
      this.priors.push(0);
      this.counts.push(new Map());
      this.totals.push(0);
    }
    this.priors[index]! += weight;
    const counts = this.counts[index]!;
    for (const word of words) {
      counts.set(word, (counts.get(word) ?? 0) + weight);
      this.totals[index]! += weight;
      this.words.add(word);
    }
  }

  /** The fitted model; `sortLabels` orders the labels by name rather than by first sight. */
  model(options: { readonly sortLabels?: boolean } = {}): NaiveBayesModel {
    const order = this.labels.map((_, i) => i);
    if (options.sortLabels) order.sort((a, b) => (this.labels[a]! < this.labels[b]! ? -1 : 1));
    return {
      labels: order.map((i) => this.labels[i]!),
      priors: order.map((i) => this.priors[i]!),
      counts: order.map((i) => Object.fromEntries(this.counts[i]!)),
      totals: order.map((i) => this.totals[i]!),
      vocabulary: this.words.size,
    };
  }
}

export interface NaiveBayesOptions {
  /** The additive count of every word (default 0.5). */
  readonly smoothing?: number;
  /** The additive count of every label's prior (default 1; 0 = the plain share of the weight). */
  readonly priorCount?: number;
}

/**
 * P(label | words) under a fitted model, over its labels (they sum to 1). Words the model never saw
 * are ignored, so an unfamiliar query falls back to the priors.
 */
export function naiveBayesProbabilities(
  model: NaiveBayesModel,
  words: readonly string[],
  options: NaiveBayesOptions = {},
): Map<string, number> {
  const smoothing = options.smoothing ?? 0.5;
  const priorCount = options.priorCount ?? 1;
  const out = new Map<string, number>();
  if (model.labels.length === 0) return out;
  const totalPrior = model.priors.reduce((s, p) => s + p, 0);
  const known = words.filter((w) => model.counts.some((c) => c[w] !== undefined));
  const logs = model.labels.map((_, i) => {
    const prior = Math.log((model.priors[i]! + priorCount) / (totalPrior + priorCount * model.labels.length));
    const denominator = model.totals[i]! + smoothing * (model.vocabulary + 1);
    let likelihood = 0;
    for (const word of known)
      likelihood += Math.log(((model.counts[i]![word] ?? 0) + smoothing) / denominator);
    // The words of a question are far from independent: summed as naive Bayes assumes, ten words
    // make a certainty out of a hunch. Averaged (per-word evidence), the model stays calibrated
    // enough that a wrong guess costs a candidate little.
    return prior + (known.length > 0 ? likelihood / Math.sqrt(known.length) : 0);
  });
  const max = Math.max(...logs);
  const exp = logs.map((l) => Math.exp(l - max));
  const sum = exp.reduce((s, e) => s + e, 0);
  for (const [i, label] of model.labels.entries()) out.set(label, exp[i]! / sum);
  return out;
}
