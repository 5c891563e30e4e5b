import type { Candidate, RetrievalContext } from '@weft/spec';
import { fitLogistic, type LinearModel, linearScore } from './logistic-regression.ts';
import { featureRows, trajectoryFeatures } from './trajectory-features.ts';
import { type TrajectoryRerankerModel, trajectoryRerankerArtifact } from './trajectory-reranker.ts';

/** Candidates a stack produced for one query, with the query's gold answers. */
export interface RerankExample {
  readonly candidates: readonly Candidate[];
  readonly answers: readonly string[];
}

export interface TrainTrajectoryRerankerOptions {
  /** Negatives sampled per query (default 24). */
  readonly negatives?: number;
  /** L2 strengths tried; the one with the best val Hit@1 (then MRR) is kept. */
  readonly l2?: readonly number[];
  /** Artifact name the model is stored under (default `reranker-trajectory.model`). */
  readonly artifact?: string;
}

export interface TrainTrajectoryRerankerResult {
  readonly model: TrajectoryRerankerModel;
  /** Val figures per L2 strength tried, in percent. */
  readonly val: readonly { readonly l2: number; readonly hit1: number; readonly mrr: number }[];
}

function rowsOf(examples: readonly RerankExample[], negatives: number): { x: number[]; y: 0 | 1 }[] {
  const rows: { x: number[]; y: 0 | 1 }[] = [];
  for (const example of examples) {
    const gold = new Set(example.answers);
    const features = featureRows(example.candidates);
    const positive = example.candidates.findIndex((c) => gold.has(c.id));
    if (positive < 0) continue;
    // One positive (the best placed) against negatives spread over the list, hard ones first.
    rows.push({ x: features[positive]!, y: 1 });
    const others = example.candidates.map((c, i) => (gold.has(c.id) ? -1 : i)).filter((i) => i >= 0);
    const hard = others.slice(0, Math.ceil(negatives / 2));
    const rest = others.slice(hard.length);
    const step = Math.max(1, Math.floor(rest.length / Math.max(1, negatives - hard.length)));
    for (const i of hard) rows.push({ x: features[i]!, y: 0 });
    for (let n = 0; n < rest.length && n / step < negatives - hard.length; n += step)
      rows.push({ x: features[rest[n]!]!, y: 0 });
  }
  return rows;
}

function evaluate(linear: LinearModel, examples: readonly RerankExample[]): { hit1: number; mrr: number } {
  let hit1 = 0;
  let mrr = 0;
  for (const example of examples) {
    const gold = new Set(example.answers);
    const features = featureRows(example.candidates);
    const order = example.candidates
      .map((c, i) => ({ c, s: linearScore(linear, features[i]!), i }))
      .sort((a, b) => b.s - a.s || a.i - b.i);
    const first = order.findIndex((e) => gold.has(e.c.id));
    if (first === 0) hit1++;
    if (first >= 0) mrr += 1 / (first + 1);
  }
  const n = Math.max(1, examples.length);
  return { hit1: (100 * hit1) / n, mrr: (100 * mrr) / n };
}

/**
 * Fits the reranker on train examples (one positive against sampled negatives per query), chooses the
 * L2 strength on val, and stores the model in `context.artifacts` when present.
 */
export async function trainTrajectoryReranker(
  context: RetrievalContext | undefined,
  train: readonly RerankExample[],
  val: readonly RerankExample[],
  options: TrainTrajectoryRerankerOptions = {},
): Promise<TrainTrajectoryRerankerResult> {
  const rows = rowsOf(train, options.negatives ?? 24);
  const tried: { l2: number; hit1: number; mrr: number; linear: LinearModel }[] = [];
  for (const l2 of options.l2 ?? [1e-4, 1e-2, 1e-1]) {
    const linear = fitLogistic([...trajectoryFeatures], rows, { l2, epochs: 400 });
    tried.push({ l2, linear, ...evaluate(linear, val.length > 0 ? val : train) });
  }
  tried.sort((a, b) => b.hit1 - a.hit1 || b.mrr - a.mrr || a.l2 - b.l2);
  const model: TrajectoryRerankerModel = { version: 1, linear: tried[0]!.linear };
  await context?.artifacts?.put(options.artifact ?? trajectoryRerankerArtifact, model);
  return { model, val: tried.map(({ l2, hit1, mrr }) => ({ l2, hit1, mrr })) };
}
