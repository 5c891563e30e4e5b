import { fitLogistic, type LinearModel, linearScore, sigmoid } from '@weft/kit';
import type { Candidate, Plan } from '@weft/spec';
import {
  gateFeatures,
  gateRow,
  type RouteMode,
  routedOrder,
  textOrder,
  trajectoryOrder,
} from './route-gate.ts';
import { featureRows, trajectoryFeatures } from './trajectory-features.ts';
import type { TrajectoryRerankerModel } from './trajectory-reranker-model.ts';

/** Candidates a stack produced for one query, with the query's gold answers. */
export interface RerankExample {
  readonly candidates: readonly Candidate[];
  readonly answers: readonly string[];
  /**
   * How much the query counts in fitting and in the val figures (default 1): give each query set
   * the same total weight so the largest set does not decide the model alone.
   */
  readonly weight?: number;
  /**
   * Used only to fit and judge the route gate, never the reranker itself: queries whose answer the
   * text alone finds (e.g. synthesised from node descriptions) teach the gate when to leave the
   * ranking to text without pulling the trajectory model toward text.
   */
  readonly gateOnly?: boolean;
  /** The query and its plan: needed to fit the route gate (examples without them do not count). */
  readonly query?: string;
  readonly plan?: Plan;
}

export interface TrainTrajectoryRerankerOptions {
  /** Negatives sampled per query (default 24). */
  readonly negatives?: number;
  /** L2 strengths tried; the one with the best val Hit@1 (then MRR) is kept. */
  readonly l2?: readonly number[];
  /**
   * Objectives tried (default both): `pointwise` classifies candidates as answer or not;
   * `pairwise` (RankNet) learns to order the positive above each negative of the same query, which
   * is what Hit@1 rewards, and is indifferent to how many candidates a query has.
   */
  readonly objectives?: readonly RerankObjective[];
  /** Fit the route gate (default true); it is kept only when it raises val Hit@1. */
  readonly gate?: boolean;
}

export interface TrainTrajectoryRerankerResult {
  readonly model: TrajectoryRerankerModel;
  /** Val figures per L2 strength tried, in percent. */
  readonly val: readonly {
    readonly objective: RerankObjective;
    readonly l2: number;
    readonly structureFirst: boolean;
    readonly hit1: number;
    readonly mrr: number;
  }[];
  /** Val figures of the chosen model with and without the route gate, and whether it was kept. */
  readonly gate?: {
    readonly kept: boolean;
    readonly mode: RouteMode;
    readonly withoutGate: { readonly hit1: number; readonly mrr: number };
    readonly hit1: number;
    readonly mrr: number;
    readonly textRoute: number;
  };
}

export type RerankObjective = 'pointwise' | 'pairwise';

type Row = { x: number[]; y: 0 | 1; weight: number };

/** Per example with an answer among its candidates: the features, the best-placed answer, the rest. */
function* labelled(examples: readonly RerankExample[]) {
  for (const example of examples) {
    const gold = new Set(example.answers);
    const positive = example.candidates.findIndex((c) => gold.has(c.id));
    if (positive < 0) continue;
    const others = example.candidates.map((c, i) => (gold.has(c.id) ? -1 : i)).filter((i) => i >= 0);
    yield { example, features: featureRows(example.candidates), positive, others };
  }
}

function rowsOf(examples: readonly RerankExample[], negatives: number): Row[] {
  const rows: Row[] = [];
  for (const { example, features, positive, others } of labelled(examples)) {
    // One positive (the best placed) against negatives spread over the list, hard ones first.
    const hard = others.slice(0, Math.ceil(negatives / 2));
    const rest = others.slice(hard.length);
    const step = Math.max(1, Math.floor(rest.length / Math.max(1, negatives - hard.length)));
    const weight = example.weight ?? 1;
    rows.push({ x: features[positive]!, y: 1, weight });
    for (const i of hard) rows.push({ x: features[i]!, y: 0, weight });
    for (let n = 0; n < rest.length && n / step < negatives - hard.length; n += step)
      rows.push({ x: features[rest[n]!]!, y: 0, weight });
  }
  return rows;
}

/**
 * Pairwise rows: the positive's features minus each negative's, labelled 1, and the mirrored
 * difference labelled 0, so the fitted weights order candidates and the bias stays near zero.
 */
function pairRowsOf(examples: readonly RerankExample[], negatives: number): Row[] {
  const rows: Row[] = [];
  for (const { example, features, positive, others } of labelled(examples)) {
    const p = features[positive]!;
    for (const i of others.slice(0, negatives)) {
      const diff = p.map((v, f) => v - features[i]![f]!);
      const weight = example.weight ?? 1;
      rows.push({ x: diff, y: 1, weight }, { x: diff.map((v) => -v), y: 0, weight });
    }
  }
  return rows;
}

/** Rank (0-based) of the first answer under the trajectory model, and under the text order. */
function ranksOf(
  linear: LinearModel,
  example: RerankExample,
  structureFirst: boolean,
): { model: number; text: number; scores: number[] } {
  const gold = new Set(example.answers);
  const scores = featureRows(example.candidates).map((x) => linearScore(linear, x));
  const first = (order: readonly number[]) => order.findIndex((i) => gold.has(example.candidates[i]!.id));
  return {
    model: first(trajectoryOrder(example.candidates, scores, structureFirst)),
    text: first(textOrder(example.candidates)),
    scores,
  };
}

const reciprocal = (rank: number) => (rank >= 0 ? 1 / (rank + 1) : 0);

function evaluate(
  linear: LinearModel,
  examples: readonly RerankExample[],
  structureFirst: boolean,
  gate?: LinearModel,
  mode: RouteMode = 'switch',
): { hit1: number; mrr: number; textRoute: number } {
  let hit1 = 0;
  let mrr = 0;
  let total = 0;
  let textRoute = 0;
  for (const example of examples) {
    const weight = example.weight ?? 1;
    total += weight;
    const gold = new Set(example.answers);
    const scores = featureRows(example.candidates).map((x) => linearScore(linear, x));
    const route =
      gate !== undefined && example.plan !== undefined
        ? sigmoid(linearScore(gate, gateRow(example.query ?? '', example.plan, example.candidates, scores)))
        : undefined;
    if (route !== undefined && route < 0.5) textRoute += weight;
    const order = routedOrder(example.candidates, scores, structureFirst, route, mode);
    const first = order.findIndex((i) => gold.has(example.candidates[i]!.id));
    if (first === 0) hit1 += weight;
    mrr += weight * reciprocal(first);
  }
  const n = total > 0 ? total : 1;
  return { hit1: (100 * hit1) / n, mrr: (100 * mrr) / n, textRoute: (100 * textRoute) / n };
}

/**
 * Fits the route gate on out-of-fold outcomes: the reranker is refitted on half of the train
 * queries and judged on the other half, so the gate learns when the trajectory ranking fails on
 * queries it has not seen. Label: which ranking places an answer higher; weight: by how much.
 */
function fitGate(
  train: readonly RerankExample[],
  fit: (examples: readonly RerankExample[]) => LinearModel,
  structureFirst: boolean,
): LinearModel | undefined {
  const usable = train.filter((e) => e.plan !== undefined && e.query !== undefined);
  const rows: Row[] = [];
  for (let fold = 0; fold < 2; fold++) {
    const inner = fit(usable.filter((e, i) => i % 2 !== fold && !e.gateOnly));
    usable.forEach((example, i) => {
      if (i % 2 !== fold) return;
      const ranks = ranksOf(inner, example, structureFirst);
      const delta = reciprocal(ranks.model) - reciprocal(ranks.text);
      if (delta === 0) return;
      rows.push({
        x: gateRow(example.query!, example.plan!, example.candidates, ranks.scores),
        y: delta > 0 ? 1 : 0,
        weight: (example.weight ?? 1) * Math.abs(delta),
      });
    });
  }
  if (rows.length < 10 || rows.every((r) => r.y === rows[0]!.y)) return undefined;
  return fitLogistic([...gateFeatures], rows, { l2: 1e-2, epochs: 400, balanced: false });
}

/**
 * Fits the reranker on train examples (one positive against sampled negatives per query), chooses the
 * L2 strength on val. Returns the model; the training step stores it (`trajectoryRerankerArtifact.save`).
 */
export async function trainTrajectoryReranker(
  train: readonly RerankExample[],
  val: readonly RerankExample[],
  options: TrainTrajectoryRerankerOptions = {},
): Promise<TrainTrajectoryRerankerResult> {
  const rowsFor = (objective: RerankObjective, examples: readonly RerankExample[]) =>
    objective === 'pairwise'
      ? pairRowsOf(examples, options.negatives ?? 48)
      : rowsOf(examples, options.negatives ?? 24);
  const tried: {
    objective: RerankObjective;
    l2: number;
    structureFirst: boolean;
    hit1: number;
    mrr: number;
    linear: LinearModel;
  }[] = [];
  const rerankTrain = train.filter((e) => !e.gateOnly);
  const rerankVal = val.filter((e) => !e.gateOnly);
  const judged = rerankVal.length > 0 ? rerankVal : rerankTrain;
  for (const objective of options.objectives ?? (['pairwise', 'pointwise'] as const)) {
    const rows = rowsFor(objective, rerankTrain);
    for (const l2 of options.l2 ?? [1e-4, 1e-2, 1e-1]) {
      const linear = fitLogistic([...trajectoryFeatures], rows, { l2, epochs: 400 });
      for (const structureFirst of [false, true])
        tried.push({ objective, l2, structureFirst, linear, ...evaluate(linear, judged, structureFirst) });
    }
  }
  tried.sort((a, b) => b.hit1 - a.hit1 || b.mrr - a.mrr || a.l2 - b.l2);
  const chosen = tried[0]!;
  const gate =
    options.gate === false
      ? undefined
      : fitGate(
          train,
          (examples) =>
            fitLogistic([...trajectoryFeatures], rowsFor(chosen.objective, examples), {
              l2: chosen.l2,
              epochs: 400,
            }),
          chosen.structureFirst,
        );
  // The gate is kept only when it helps on val (gate-only queries included), used the way that
  // helps most: switching between the two rankings, or blending them by its probability.
  const gateVal = val.length > 0 ? val : train;
  const ungated = evaluate(chosen.linear, gateVal, chosen.structureFirst);
  const modes = gate
    ? (['switch', 'blend'] as const)
        .map((mode) => ({ mode, ...evaluate(chosen.linear, gateVal, chosen.structureFirst, gate, mode) }))
        .sort((a, b) => b.hit1 - a.hit1 || b.mrr - a.mrr)
    : [];
  const gated = modes[0];
  const keep =
    gated !== undefined &&
    (gated.hit1 > ungated.hit1 || (gated.hit1 === ungated.hit1 && gated.mrr > ungated.mrr));
  const model: TrajectoryRerankerModel = {
    linear: chosen.linear,
    ...(chosen.structureFirst ? { structureFirst: true } : {}),
    ...(keep && gate ? { gate, route: gated.mode } : {}),
  };
  return {
    model,
    val: tried.map(({ objective, l2, structureFirst, hit1, mrr }) => ({
      objective,
      l2,
      structureFirst,
      hit1,
      mrr,
    })),
    ...(gated
      ? {
          gate: {
            kept: keep,
            mode: gated.mode,
            hit1: gated.hit1,
            mrr: gated.mrr,
            textRoute: gated.textRoute,
            withoutGate: { hit1: ungated.hit1, mrr: ungated.mrr },
          },
        }
      : {}),
  };
}
