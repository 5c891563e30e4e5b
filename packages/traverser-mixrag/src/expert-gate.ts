import { defineArtifact } from '@weft/kit';

/** The experts a mixture weighs, in the order of every weight vector. */
export const expertNames = ['entity', 'relation', 'subgraph'] as const;
export type ExpertName = (typeof expertNames)[number];

/** What the gate sees of a query: cheap signals of which expert it needs (see `gateFeatures`). */
export const gateFeatureNames = [
  'anchorConfidence',
  'anchorCount',
  'queryWords',
  'entityGap',
  'relationStrength',
  'expertOverlap',
  'treeTargets',
  'plannedPaths',
] as const;

/**
 * MixRAG's gate: expert k scores `q(x)ᵀ W e_k` for the query's features `q(x)` (standardised, with a
 * bias) and expert embeddings `e_k`, and the weights are their softmax. With one-hot expert
 * embeddings, as here, `W e_k` is expert k's column: a per-expert linear score.
 */
export interface ExpertGateModel {
  readonly features: readonly string[];
  readonly experts: readonly string[];
  /** Row-major `(features + 1) × experts`: the last row is the bias. */
  readonly weights: readonly (readonly number[])[];
  readonly mean: readonly number[];
  readonly scale: readonly number[];
  /** The constant c of the reciprocal-rank scores `(c + 1) / (c + rank)` the weights mix (chosen on val). */
  readonly rankConstant?: number;
  /** The untrained weights apply (`untrainedWeights`), not `weights`: training found no better gate. */
  readonly untrained?: true;
}

/** How the gate `trainMixtureGate` fits is stored, and `MixtureTraverser` reads it. */
export const expertGateArtifact = defineArtifact<ExpertGateModel>({
  kind: 'traverser-mixrag-gate',
  version: 1,
});

/** A gate that weighs every expert equally whatever the query (what training keeps when fitting does not help). */
export function uniformGate(rankConstant?: number): ExpertGateModel {
  const d = gateFeatureNames.length;
  return {
    features: [...gateFeatureNames],
    experts: [...expertNames],
    weights: Array.from({ length: d + 1 }, () => expertNames.map(() => 0)),
    mean: new Array<number>(d).fill(0),
    scale: new Array<number>(d).fill(1),
    ...(rankConstant !== undefined ? { rankConstant } : {}),
  };
}

/**
 * The experts' weights before any training, for a question that names a relation (the planner read
 * one from the edge types' names, or learned one): the entity expert (the answers' own text) leads,
 * the relation and subgraph experts, which follow that relation's neighbourhood, weigh almost as much.
 * Hit@1 of mixrag-offline untrained, `weft eval` train / val, 0.6 / 0.2 / 0.2 → these: WordNet wn18rr
 * val 46 → 101 of 300 (0.2 / 0.4 / 0.4: 102), Debian hybrid 9 → 10 / 5 → 6 of 20 / 10, Pokémon hybrid
 * 14 → 15 of 48 on train; the rest within one question. (With equal weights whatever the question,
 * the neighbourhood's lists took the first places: WordNet hybrid val Hit@1 19.2.)
 */
export const untrainedExpertWeights: Readonly<Record<ExpertName, number>> = {
  entity: 0.4,
  relation: 0.3,
  subgraph: 0.3,
};

/**
 * For a question that names no relation, the relation and subgraph experts each weigh this times
 * the confidence of its surest mention (`anchorConfidence`), and the entity expert the rest: a
 * question that names nothing is ranked by its answers' own text, as BM25 ranks it. Before, every
 * question had fixed weights (0.6 / 0.2 / 0.2), and mixrag-offline untrained lost to bm25 on
 * text-only questions. Hit@1 of mixrag-offline untrained, `weft eval` train / val, bm25 first, fixed
 * → now (these weights, `untrainedExpertWeights` and the relations the planner reads from the edge
 * types' names): text-only synthesised from the KB (189 each) WordNet 178: 100 → 164, Debian 143:
 * 103 → 147, Pokémon 64: 54 → 63; WordNet hybrid 75 / 27: 59 → 75 / 20 → 25; Debian hybrid 7 / 5:
 * 9 → 10 / 5 → 6; Pokémon hybrid 10 / 6: 15 / 8, unchanged; the labelled text-only sets 2 to 3
 * questions up, Debian described train one down; wn18rr val 46 → 101 of 300. At 0.05 it ranked as
 * bm25 does, relational questions too (Pokémon hybrid train 10).
 */
export const unnamedRelationShare = 0.1;

/**
 * The untrained weights in the order of `expertNames`: `untrainedExpertWeights` without a query's
 * features, or when the query plans a relation (`plannedPaths`); else the entity expert's share
 * grows as the question names less (`unnamedRelationShare`).
 */
export function untrainedWeights(
  x?: readonly number[],
  features: readonly string[] = gateFeatureNames,
): number[] {
  const named = expertNames.map((name) => untrainedExpertWeights[name]);
  if (!x) return named;
  const value = (feature: (typeof gateFeatureNames)[number]) => {
    const j = features.indexOf(feature);
    return j < 0 ? 0 : (x[j] ?? 0);
  };
  if (value('plannedPaths') > 0) return named;
  const share = unnamedRelationShare * Math.min(1, Math.max(0, value('anchorConfidence')));
  return expertNames.map((name) => (name === 'entity' ? 1 - 2 * share : share));
}

/** A gate that gives every query `untrainedWeights` (what training keeps when fitting does not help). */
export function untrainedGate(rankConstant?: number): ExpertGateModel {
  return { ...uniformGate(rankConstant), untrained: true };
}

export function softmax(z: readonly number[]): number[] {
  const top = Math.max(...z);
  const e = z.map((v) => Math.exp(v - top));
  const sum = e.reduce((s, v) => s + v, 0);
  return e.map((v) => v / sum);
}

/** The gate's weights over `expertNames` for one query's features. */
export function gateWeights(model: ExpertGateModel, x: readonly number[]): number[] {
  if (model.untrained) return untrainedWeights(x, model.features);
  const d = model.features.length;
  const z = model.experts.map((_, k) => {
    let sum = model.weights[d]![k]!;
    for (let j = 0; j < d; j++)
      sum += (((x[j] ?? 0) - model.mean[j]!) / model.scale[j]!) * model.weights[j]![k]!;
    return sum;
  });
  return softmax(z);
}

export interface GateExample {
  readonly features: readonly number[];
  /** Per expert, how well it alone answered the query (e.g. the reciprocal rank of the first answer). */
  readonly quality: readonly number[];
  readonly weight?: number;
}

/**
 * Fits the gate by softmax regression on soft targets: each query's target is its experts' quality
 * shares, so the gate learns which expert tends to answer which kind of query. L2 keeps it close to
 * equal weights where the signals say little. Queries no expert answered teach nothing and are skipped.
 */
export function fitExpertGate(
  examples: readonly GateExample[],
  options: { readonly l2?: number; readonly epochs?: number; readonly rate?: number } = {},
): ExpertGateModel {
  const d = gateFeatureNames.length;
  const m = expertNames.length;
  const rows = examples
    .map((e) => {
      const total = e.quality.reduce((s, q) => s + Math.max(0, q), 0);
      return total > 0
        ? { x: e.features, t: e.quality.map((q) => Math.max(0, q) / total), w: e.weight ?? 1 }
        : undefined;
    })
    .filter((r) => r !== undefined);
  const mean = new Array<number>(d).fill(0);
  const scale = new Array<number>(d).fill(0);
  for (const r of rows) for (let j = 0; j < d; j++) mean[j]! += (r.x[j] ?? 0) / Math.max(1, rows.length);
  for (const r of rows)
    for (let j = 0; j < d; j++) scale[j]! += ((r.x[j] ?? 0) - mean[j]!) ** 2 / Math.max(1, rows.length);
  for (let j = 0; j < d; j++) scale[j] = Math.sqrt(scale[j]!) || 1;
  const W = Array.from({ length: d + 1 }, () => new Array<number>(m).fill(0));
  const l2 = options.l2 ?? 0.01;
  const rate = options.rate ?? 0.5;
  const totalWeight = rows.reduce((s, r) => s + r.w, 0) || 1;
  const standardised = rows.map((r) => [...r.x.map((v, j) => ((v ?? 0) - mean[j]!) / scale[j]!), 1]);
  for (let epoch = 0; epoch < (options.epochs ?? 400); epoch++) {
    const grad = Array.from({ length: d + 1 }, () => new Array<number>(m).fill(0));
    rows.forEach((row, n) => {
      const x = standardised[n]!;
      const z = new Array<number>(m).fill(0);
      for (let j = 0; j <= d; j++) for (let k = 0; k < m; k++) z[k]! += x[j]! * W[j]![k]!;
      const p = softmax(z);
      for (let k = 0; k < m; k++) {
        const err = ((p[k]! - row.t[k]!) * row.w) / totalWeight;
        for (let j = 0; j <= d; j++) grad[j]![k]! += err * x[j]!;
      }
    });
    for (let j = 0; j <= d; j++)
      for (let k = 0; k < m; k++) W[j]![k] = W[j]![k]! - rate * (grad[j]![k]! + (j < d ? l2 * W[j]![k]! : 0));
  }
  return { features: [...gateFeatureNames], experts: [...expertNames], weights: W, mean, scale };
}
