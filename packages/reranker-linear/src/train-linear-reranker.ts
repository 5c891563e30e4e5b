import { fitLogistic, type LinearModel, linearScore } from '@weft/kit';
import type { Candidate, Plan } from '@weft/spec';
import { featureRows, type LinearFeature, linearFeatures } from './linear-features.ts';
import { type LinearRerankerModel, untrainedLinearScore } from './linear-reranker.ts';

/** A query's candidates (from the stack without its reranker), with the gold answers. */
export interface LinearRerankExample {
  readonly candidates: readonly Candidate[];
  readonly plan: Plan;
  readonly answers: readonly string[];
  /** How much the query counts (e.g. so that every query set weighs the same); default 1. */
  readonly weight?: number;
}

export interface TrainLinearRerankerOptions {
  /** Regularisation strengths tried; the best on val is kept (default 0.001, 0.01, 0.1). */
  readonly l2?: readonly number[];
  /** Hardest wrong candidates per query, by the untrained order, paired with each answer (default 30). */
  readonly negativesPerQuery?: number;
  /**
   * Features kept out of the fit (their weight stays 0): those whose meaning depends on how people
   * phrase questions — the planned type and relation — when the training queries are synthesised.
   */
  readonly exclude?: readonly LinearFeature[];
}

export interface TrainLinearRerankerReport {
  readonly model: LinearRerankerModel;
  /** Val score (mean of Hit@1 and MRR, percent, weighted) per l2 tried. */
  readonly tried: readonly { readonly l2: number; readonly val: number }[];
  /** The same score of the untrained weights. */
  readonly untrained: number;
  readonly chosen: 'fitted' | 'untrained';
}

function valScore(
  examples: readonly LinearRerankExample[],
  score: (row: readonly number[]) => number,
): number {
  let sum = 0;
  let weights = 0;
  for (const example of examples) {
    const rows = featureRows(example.candidates, example.plan);
    const gold = new Set(example.answers);
    const order = example.candidates
      .map((c, i) => ({ id: c.id, s: score(rows[i]!), i }))
      .sort((a, b) => b.s - a.s || a.i - b.i);
    const first = order.findIndex((e) => gold.has(e.id));
    const weight = example.weight ?? 1;
    sum += weight * (first < 0 ? 0 : ((first === 0 ? 1 : 0) + 1 / (first + 1)) / 2);
    weights += weight;
  }
  return weights > 0 ? (100 * sum) / weights : 0;
}

/**
 * Pairwise (RankNet) logistic regression on the train queries: each answer against the hardest wrong
 * candidates of its query. The regularisation is chosen on val, and the fitted weights are kept only
 * when they beat the untrained weights there — a KB whose queries teach nothing keeps the defaults.
 */
export function trainLinearReranker(
  train: readonly LinearRerankExample[],
  val: readonly LinearRerankExample[],
  options: TrainLinearRerankerOptions = {},
): TrainLinearRerankerReport {
  const negatives = options.negativesPerQuery ?? 30;
  const excluded = new Set((options.exclude ?? []).map((f) => linearFeatures.indexOf(f)));
  const rows: { x: number[]; y: 0 | 1; weight: number }[] = [];
  for (const example of train) {
    const features = featureRows(example.candidates, example.plan);
    const gold = new Set(example.answers);
    const indexed = example.candidates.map((c, i) => ({ c, x: features[i]! }));
    const positives = indexed.filter((e) => gold.has(e.c.id)).slice(0, 5);
    const wrong = indexed
      .filter((e) => !gold.has(e.c.id))
      .sort((a, b) => untrainedLinearScore(b.x) - untrainedLinearScore(a.x))
      .slice(0, negatives);
    if (positives.length === 0 || wrong.length === 0) continue;
    const weight = (example.weight ?? 1) / (positives.length * wrong.length);
    for (const p of positives) {
      for (const n of wrong) {
        const difference = p.x.map((v, i) => (excluded.has(i) ? 0 : v - n.x[i]!));
        rows.push({ x: difference, y: 1, weight });
        rows.push({ x: difference.map((v) => -v), y: 0, weight });
      }
    }
  }
  const untrained = valScore(val, untrainedLinearScore);
  const tried: { l2: number; val: number; model: LinearModel }[] = [];
  if (rows.length > 0) {
    for (const l2 of options.l2 ?? [0.001, 0.01, 0.1]) {
      // Differences come in ± pairs: centred already, so the fitted bias is 0 and means are 0.
      const model = fitLogistic(linearFeatures, rows, { l2, epochs: 400, balanced: false });
      tried.push({ l2, model, val: valScore(val, (x) => linearScore(model, x)) });
    }
  }
  const best = tried.sort((a, b) => b.val - a.val)[0];
  const chosen = best && best.val > untrained ? 'fitted' : 'untrained';
  return {
    model: {
      ...(chosen === 'fitted' ? { linear: best!.model } : {}),
      val: { fitted: best?.val ?? 0, untrained },
    },
    tried: tried.map(({ l2, val }) => ({ l2, val })),
    untrained,
    chosen,
  };
}
