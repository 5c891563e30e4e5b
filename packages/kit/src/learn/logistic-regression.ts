/** A linear model over named features with a logistic link, serialisable as JSON. */
export interface LinearModel {
  readonly features: readonly string[];
  readonly weights: readonly number[];
  readonly bias: number;
  /** Feature means and scales used to standardise inputs. */
  readonly mean: readonly number[];
  readonly scale: readonly number[];
}

export function linearScore(model: LinearModel, x: readonly number[]): number {
  let z = model.bias;
  for (let i = 0; i < model.weights.length; i++)
    z += model.weights[i]! * (((x[i] ?? 0) - model.mean[i]!) / model.scale[i]!);
  return z;
}

export const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

/** Batch gradient descent on the L2-regularised log loss, positives and negatives balanced. */
export function fitLogistic(
  features: readonly string[],
  rows: readonly { readonly x: readonly number[]; readonly y: 0 | 1; readonly weight?: number }[],
  options: {
    readonly l2?: number;
    readonly epochs?: number;
    readonly rate?: number;
    /** Give positives and negatives equal total weight (default true). */
    readonly balanced?: boolean;
  } = {},
): LinearModel {
  const d = features.length;
  const mean = new Array<number>(d).fill(0);
  const scale = new Array<number>(d).fill(0);
  for (const row of rows) for (let i = 0; i < d; i++) mean[i]! += (row.x[i] ?? 0) / Math.max(1, rows.length);
  for (const row of rows)
    for (let i = 0; i < d; i++) scale[i]! += ((row.x[i] ?? 0) - mean[i]!) ** 2 / Math.max(1, rows.length);
  for (let i = 0; i < d; i++) scale[i] = Math.sqrt(scale[i]!) || 1;
  const positives = rows.reduce((s, r) => s + (r.y === 1 ? (r.weight ?? 1) : 0), 0);
  const negatives = rows.reduce((s, r) => s + (r.y === 0 ? (r.weight ?? 1) : 0), 0);
  const balanced = options.balanced ?? true;
  const weightOf = (row: { readonly y: 0 | 1; readonly weight?: number }) =>
    (row.weight ?? 1) *
    (balanced
      ? row.y === 1
        ? 0.5 / Math.max(1e-9, positives)
        : 0.5 / Math.max(1e-9, negatives)
      : 1 / Math.max(1e-9, positives + negatives));
  const w = new Array<number>(d).fill(0);
  let b = 0;
  const l2 = options.l2 ?? 1e-3;
  const rate = options.rate ?? 0.5;
  const standardised = rows.map((r) => r.x.map((v, i) => ((v ?? 0) - mean[i]!) / scale[i]!));
  for (let epoch = 0; epoch < (options.epochs ?? 300); epoch++) {
    const gw = new Array<number>(d).fill(0);
    let gb = 0;
    rows.forEach((row, n) => {
      const x = standardised[n]!;
      let z = b;
      for (let i = 0; i < d; i++) z += w[i]! * x[i]!;
      const err = (sigmoid(z) - row.y) * weightOf(row);
      for (let i = 0; i < d; i++) gw[i]! += err * x[i]!;
      gb += err;
    });
    for (let i = 0; i < d; i++) w[i] = w[i]! - rate * (gw[i]! + l2 * w[i]!);
    b -= rate * gb;
  }
  return { features: [...features], weights: w, bias: b, mean, scale };
}
