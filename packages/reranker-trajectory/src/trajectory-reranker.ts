import {
  ArtifactCache,
  type ConfirmationScores,
  linearScore,
  queryNames,
  sigmoid,
  structureConfirmation,
  WeftError,
} from '@weft/kit';
import type { Candidate, Plan, RerankerV1, RerankOptions, RetrievalContext } from '@weft/spec';
import { gateRow, routedOrder } from './route-gate.ts';
import { featureRows, trajectoryFeatures } from './trajectory-features.ts';
import { trajectoryRerankerArtifact } from './trajectory-reranker-artifact.ts';
import type { TrajectoryRerankerModel } from './trajectory-reranker-model.ts';

export type { TrajectoryRerankerModel } from './trajectory-reranker-model.ts';

/**
 * What `trainTrajectoryReranker` fits; stored as an artifact with the store (see
 * `trajectoryRerankerArtifact`, whose version says which shape this is).
 */

/**
 * Where the reranker's model comes from: an artifact of the store, by the name its trainer stored
 * it under, or a model given here. There is no default name: a name the trainer does not share
 * would leave a trained store ranking with fixed weights.
 */
export type TrajectoryRerankerOptions = {
  readonly name?: string;
  /**
   * Without a trained model, blend the trajectory order with the text order by the plan's
   * confidence × how far the question's words confirm its structure (`structureConfirmation` of
   * @weft/kit): `true` for every plan, `'offline-plans'` for plans no LLM wrote (no `plan.raw`),
   * `false` (default) for none: the trajectory order alone. For offline planners, whose untrained
   * paths are often wrong: on WordNet hybrid val `mor-offline`'s Hit@1 went from 30.8 to 46.2
   * (R@20 72.1 → 85.6), the Pokémon hybrid set's from 31.6 to 36.8, wn18rr unchanged at 81.3, with
   * the confidence alone. The confirmation, `mor-offline` Hit@1 train / val before → after: WordNet
   * hybrid 68 / 25 → 80 / 29 of 158 / 52 (bm25 75 / 27), its synthesised text-only questions 168 →
   * 179 of 189 (bm25 178); Pokémon text train 8 → 9 of 30; wn18rr val 246 → 239 of 300; every other
   * split of three KBs equal. Confirmed by the answers alone, wn18rr fell to 121 (its answers share no
   * words with the question); by the anchor alone, WordNet hybrid val was 27 and wn18rr 233.
   */
  readonly untrainedRouteByConfidence?: boolean | 'offline-plans';
  /**
   * Which plans the trained model ranks: `'all'` (default), or `'offline-plans'`: plans an LLM wrote
   * (with `plan.raw`) rank as untrained. `weft train` fits the model on an offline planner's
   * candidates, whose paths are often wrong, so it learns to trust text over structure; on a right
   * plan that is the wrong lesson. `mor` with the oracle model (gold plans), val Hit@1 untrained →
   * trained on labels, before this option: Pokémon described 57.9 → 5.3, hybrid 73.7 → 52.6, Debian
   * hybrid 90 → 70, WordNet hybrid 78.8 → 76.9.
   */
  readonly modelFor?: 'all' | 'offline-plans';
} & (
  | {
      /**
       * The artifact `trainTrajectoryReranker` stored the model under
       * (`artifactName(stack, 'reranker-trajectory')`), read from `context.artifacts`. When it is
       * missing or stale the reranker warns (`context.warn`) and applies fixed weights.
       */
      readonly artifact: string;
      readonly model?: undefined;
    }
  | { readonly model: TrajectoryRerankerModel; readonly artifact?: undefined }
);

/**
 * The scores the features read that MorTraverser puts on every candidate, structural or fill.
 * Others it reads (`pathScore`, `link`, `dense`, `anchorNeighbor`, …) are on some candidates only,
 * so their absence from a list says nothing; the absence of these says the traverser is not one
 * whose candidates the features describe, and every structural feature would read 0.
 */
const requiredScores: readonly string[] = ['structure', 'bm25Global', 'paths', 'anchors', 'planConfidence'];

/** Used until `weft train` has fitted a model: structure with text inside the set, text as the fill. */
const fixedWeights: Readonly<Record<(typeof trajectoryFeatures)[number], number>> = {
  structure: 2,
  pathScore: 1,
  link: 0.2,
  bm25InSet: 1,
  bm25Restriction: 0.5,
  bm25Global: 1,
  textRank: -0.2,
  dense: 0.5,
  paths: 0.2,
  anchors: 0.5,
  setSize: -0.05,
  hops: 0,
  targetType: 0.3,
  viaStructure: 0.2,
  textOnly: 0,
  trajectories: 0,
  inputRank: -0.3,
  structureShare: 2,
  bestPath: 1,
  denseInSet: 0.5,
  textOnlyConfident: -2,
  structureText: 1,
  structureDense: 0.5,
  structureRestriction: 0.5,
  confidentStructure: 1,
  pathConfidence: 1,
  pathConfidenceText: 1,
  anchorNeighbor: 0.5,
  anchorNeighbors: 0.3,
  anchorNeighborText: 1,
};

/**
 * The fixed weights for a plan an LLM wrote: its restriction (what the answer's own text should say,
 * as the model read the question) leads the text evidence at twice the question's weight in
 * `fixedWeights`, and the question's own text scores (BM25, its rank, dense) count half as much as
 * there: the rest of the question describes the anchors, not the answer. `mor` with the oracle model,
 * untrained stores, train and val splits of WordNet hybrid, Pokémon hybrid and described, Debian
 * hybrid and described: 9 of 10 cells equal or higher with the question-derived restriction (one
 * lower by 2 questions of 48), all 10 with the judge's wording (e.g. Debian described val 69.6 → 82.6).
 */
const modelPlanWeights: Readonly<Record<(typeof trajectoryFeatures)[number], number>> = {
  ...fixedWeights,
  bm25Restriction: 2 * fixedWeights.bm25InSet,
  structureRestriction: 2 * fixedWeights.structureText,
  bm25InSet: fixedWeights.bm25InSet / 2,
  structureText: fixedWeights.structureText / 2,
  bm25Global: fixedWeights.bm25Global / 2,
  textRank: fixedWeights.textRank / 2,
  dense: fixedWeights.dense / 2,
  denseInSet: fixedWeights.denseInSet / 2,
  structureDense: fixedWeights.structureDense / 2,
};

/**
 * MoR's structure-aware reranker: scores each candidate from the trajectories that reached it (text
 * scores along the path, how each hop was reached, path length, anchor confidence, BM25 and dense
 * scores, how many paths reached it) with a linear model fitted on train queries.
 */
export class TrajectoryReranker implements RerankerV1 {
  readonly specificationVersion = 'v1';
  readonly name: string;
  readonly requiredScores = requiredScores;
  private readonly options: TrajectoryRerankerOptions;
  /**
   * Loaded models by artifact store: one reranker may serve several stores (stacks over two stores
   * share it), and each store has its own model. Read once per store; a failed read is retried.
   */
  private readonly models = new ArtifactCache(trajectoryRerankerArtifact);

  constructor(options: TrajectoryRerankerOptions) {
    // Callers without types (scripts, JavaScript) get a message rather than a TypeError on first use.
    if (options?.model === undefined && typeof options?.artifact !== 'string') {
      throw new WeftError({
        code: 'WEFT_BAD_INPUT',
        message:
          "TrajectoryReranker needs { artifact } (the name trainTrajectoryReranker stored its model under, e.g. artifactName(stack, 'reranker-trajectory')) or { model }",
      });
    }
    this.options = options;
    this.name = options.name ?? 'trajectory';
  }

  /** The model for this context's store, or undefined (fixed weights) after a warning. */
  private async modelFor(context: RetrievalContext): Promise<TrajectoryRerankerModel | undefined> {
    return this.options.model ?? this.models.get(context, this.options.artifact);
  }

  async doRerank(options: RerankOptions): Promise<Candidate[]> {
    if (options.candidates.length === 0) return [];
    const fitted = await this.modelFor(options.context);
    const model =
      this.options.modelFor === 'offline-plans' && options.plan.raw !== undefined ? undefined : fitted;
    const rows = featureRows(options.candidates);
    const weights =
      options.plan.raw !== undefined && options.plan.restriction && options.plan.restriction !== options.query
        ? modelPlanWeights
        : fixedWeights;
    const trajectory = options.candidates.map((_, i) => {
      const x = rows[i]!;
      const score = model
        ? linearScore(model.linear, x)
        : trajectoryFeatures.reduce((z, name, f) => z + weights[name] * x[f]!, 0);
      return Number.isFinite(score) ? score : Number.NEGATIVE_INFINITY;
    });
    // The route gate: the less reliable the plan looks for this query, the more the text ranking counts.
    const route = model?.gate
      ? sigmoid(linearScore(model.gate, gateRow(options.query, options.plan, options.candidates, trajectory)))
      : 1;
    const structureFirst = model?.structureFirst ?? false;
    // Untrained, the plan's own confidence may stand in for the gate: an unsure plan's paths count
    // less, and so do paths whose anchor and answers the question's words do not describe.
    const byConfidence = this.options.untrainedRouteByConfidence;
    const untrainedRoute =
      !model &&
      (byConfidence === true || (byConfidence === 'offline-plans' && options.plan.raw === undefined))
        ? options.plan.confidence *
          (await structureConfirmation(
            options.context,
            options.query,
            options.plan,
            textScores(options.candidates),
          ))
        : undefined;
    const order = namesFirst(
      options.plan,
      options.candidates,
      routedOrder(
        options.candidates,
        trajectory,
        structureFirst,
        model?.gate ? route : untrainedRoute,
        model?.route ?? (untrainedRoute === undefined ? 'switch' : 'blend'),
      ),
    );
    const rank = new Map(order.map((i, r) => [i, r]));
    const scored = options.candidates.map((candidate, i) => ({
      candidate,
      trajectory: trajectory[i]!,
      // The score is the position in the routed order, so scores agree with the order.
      score: options.candidates.length - rank.get(i)!,
      index: i,
    }));
    scored.sort((a, b) => b.score - a.score || a.index - b.index);
    const seen = new Set<string>();
    const out: Candidate[] = [];
    for (const { candidate, score, trajectory: t } of scored) {
      if (seen.has(candidate.id)) continue;
      seen.add(candidate.id);
      out.push({
        ...candidate,
        score,
        scores: { ...candidate.scores, trajectory: t, ...(model?.gate ? { routeStructure: route } : {}) },
      });
      if (out.length >= options.limit) break;
    }
    return out;
  }
}

/** The best BM25 of the question among the candidates, and among those a planned path reached. */
function textScores(candidates: readonly Candidate[]): ConfirmationScores {
  let best = 0;
  let reached = 0;
  for (const c of candidates) {
    const bm25 = c.scores.bm25 ?? 0;
    best = Math.max(best, bm25);
    if ((c.scores.structure ?? 0) > 0) reached = Math.max(reached, bm25);
  }
  return { best, reached };
}

/**
 * A query that is nothing but a name asks for the node it names (`queryNames`): those candidates
 * lead, the rest keep `order`. No training question is a bare name, and every trajectory feature
 * favours the named node's neighbours.
 */
function namesFirst(plan: Plan, candidates: readonly Candidate[], order: readonly number[]): number[] {
  const names = queryNames(plan);
  if (names.length === 0) return [...order];
  const place = new Map(names.map((id, r) => [id, r]));
  const named = order.filter((i) => place.has(candidates[i]!.id));
  named.sort((a, b) => place.get(candidates[a]!.id)! - place.get(candidates[b]!.id)!);
  return [...named, ...order.filter((i) => !place.has(candidates[i]!.id))];
}
