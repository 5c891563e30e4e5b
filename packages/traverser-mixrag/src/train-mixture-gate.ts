import type { PlannerV1, RetrievalContext } from '@weft/spec';
import {
  type ExpertGateModel,
  expertNames,
  fitExpertGate,
  type GateExample,
  gateWeights,
  untrainedGate,
} from './expert-gate.ts';
import type { ExpertOutputs, MixtureTraverser } from './mixture-traverser.ts';

/** One labelled query of a training set. */
export interface GateQuery {
  readonly query: string;
  readonly answers: readonly string[];
  /** The query set it comes from: the weights are reported per set. */
  readonly set: string;
  readonly weight?: number;
}

export interface TrainMixtureGateResult {
  /** The gate to keep: fitted, or the untrained weights (`untrainedGate`) when those did as well on val. */
  readonly model: ExpertGateModel;
  readonly chosen: 'fitted' | 'untrained';
  /** Val objective (mean of MRR and Recall@20 of the mixture, in %) of the untrained weights. */
  readonly untrained: number;
  readonly tried: readonly { readonly l2: number; readonly rankConstant: number; readonly val: number }[];
  /** Per set, the mean weight the chosen gate gives each expert on its val queries (MixRAG's expert-weight figure). */
  readonly weightsBySet: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /** Per set, how often each expert alone ranked an answer first among the three, on train. */
  readonly bestExpertBySet: Readonly<Record<string, Readonly<Record<string, number>>>>;
}

interface Collected {
  readonly query: GateQuery;
  readonly outputs: ExpertOutputs;
}

const rankConstants = [10, 60];

const reciprocalRank = (ranking: readonly string[], answers: ReadonlySet<string>, depth = 100) => {
  const i = ranking.slice(0, depth).findIndex((id) => answers.has(id));
  return i < 0 ? 0 : 1 / (i + 1);
};

const recall20 = (ranking: readonly string[], answers: ReadonlySet<string>) =>
  answers.size === 0 ? 0 : ranking.slice(0, 20).filter((id) => answers.has(id)).length / answers.size;

/**
 * Fits MixRAG's gate on labelled queries: the experts run on each train and val query (with the
 * stack's planner), each train query's target is how well each expert alone answered it, and the
 * gate is kept only when it beats the untrained weights (`untrainedGate`) on val (the L2 strength
 * chosen there too).
 */
export async function trainMixtureGate(
  context: RetrievalContext,
  traverser: MixtureTraverser,
  planner: PlannerV1,
  queries: { readonly train: readonly GateQuery[]; readonly val: readonly GateQuery[] },
  options: {
    readonly onProgress?: (done: number, total: number) => void;
    readonly abortSignal?: AbortSignal;
  } = {},
): Promise<TrainMixtureGateResult> {
  const total = queries.train.length + queries.val.length;
  let done = 0;
  const collect = async (list: readonly GateQuery[]): Promise<Collected[]> => {
    const out: Collected[] = [];
    for (const query of list) {
      options.abortSignal?.throwIfAborted();
      const plan = await planner.doPlan({ query: query.query, feedback: [], context });
      out.push({ query, outputs: await traverser.experts(query.query, plan, context) });
      options.onProgress?.(++done, total);
    }
    return out;
  };
  const train = await collect(queries.train);
  const val = await collect(queries.val);
  const examples: GateExample[] = train.map(({ query, outputs }) => {
    const answers = new Set(query.answers);
    return {
      features: outputs.features,
      quality: expertNames.map((name) => reciprocalRank(outputs.rankings[name], answers)),
      ...(query.weight !== undefined ? { weight: query.weight } : {}),
    };
  });
  const objective = (model: ExpertGateModel) => {
    if (val.length === 0) return 0;
    let sum = 0;
    let weight = 0;
    for (const { query, outputs } of val) {
      const answers = new Set(query.answers);
      const ranking = traverser
        .candidates(outputs, gateWeights(model, outputs.features), 100, model.rankConstant)
        .map((c) => c.id);
      const w = query.weight ?? 1;
      sum += w * ((reciprocalRank(ranking, answers) + recall20(ranking, answers)) / 2);
      weight += w;
    }
    return (100 * sum) / weight;
  };
  // The rank constant decides how deep each expert's list still counts (10: the top few; 60: RRF's).
  const untrainedScores = rankConstants.map((c) => {
    const model = untrainedGate(c);
    return { rankConstant: c, model, val: objective(model) };
  });
  const bestUntrained = untrainedScores.reduce((a, b) => (b.val > a.val ? b : a));
  const tried = rankConstants.flatMap((rankConstant) =>
    [0.001, 0.01, 0.1, 1].map((l2) => {
      const model = { ...fitExpertGate(examples, { l2 }), rankConstant };
      return { l2, rankConstant, model, val: objective(model) };
    }),
  );
  const best = tried.reduce((a, b) => (b.val > a.val ? b : a));
  const untrained = bestUntrained.val;
  const chosen = best.val > untrained ? 'fitted' : 'untrained';
  const model = chosen === 'fitted' ? best.model : bestUntrained.model;
  const weightsBySet: Record<string, Record<string, number>> = {};
  const counts: Record<string, number> = {};
  for (const { query, outputs } of val) {
    const w = gateWeights(model, outputs.features);
    const entry = weightsBySet[query.set] ?? Object.fromEntries(expertNames.map((n) => [n, 0]));
    expertNames.forEach((name, k) => {
      entry[name] = entry[name]! + w[k]!;
    });
    weightsBySet[query.set] = entry;
    counts[query.set] = (counts[query.set] ?? 0) + 1;
  }
  for (const [set, entry] of Object.entries(weightsBySet))
    for (const name of expertNames) entry[name] = entry[name]! / counts[set]!;
  const bestExpertBySet: Record<string, Record<string, number>> = {};
  for (const { query, outputs } of train) {
    const answers = new Set(query.answers);
    const quality = expertNames.map((name) => reciprocalRank(outputs.rankings[name], answers));
    const top = Math.max(...quality);
    if (top === 0) continue;
    const entry = bestExpertBySet[query.set] ?? Object.fromEntries(expertNames.map((n) => [n, 0]));
    expertNames.forEach((name, k) => {
      if (quality[k] === top) entry[name] = entry[name]! + 1;
    });
    bestExpertBySet[query.set] = entry;
  }
  return {
    model,
    chosen,
    untrained,
    tried: tried.map(({ l2, rankConstant, val: v }) => ({ l2, rankConstant, val: v })),
    weightsBySet,
    bestExpertBySet,
  };
}
