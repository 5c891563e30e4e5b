import { type LinearModel, linearScore, sigmoid } from '@weft/core';
import type { Candidate, RerankerV1, RerankOptions, RetrievalContext } from '@weft/spec';
import { gateFeatures, gateRow, type RouteMode, routedOrder } from './route-gate.ts';
import { featureRows, trajectoryFeatures } from './trajectory-features.ts';

export const trajectoryRerankerArtifact = 'reranker-trajectory.model';

export interface TrajectoryRerankerModel {
  readonly version: 1;
  readonly linear: LinearModel;
  /**
   * The route gate over `gateFeatures`: P(the trajectory ranking beats the text ranking) for a
   * query — with `route: 'switch'` the text ranking is returned below 0.5, with `'blend'` the two
   * rankings are mixed by it. Absent when it did not help on val.
   */
  readonly gate?: LinearModel;
  /** Under the structure route, candidates reached by a planned path come first (chosen on val). */
  readonly structureFirst?: boolean;
  /** How the gate is used (default `switch`); see `routedOrder`. */
  readonly route?: RouteMode;
}

export interface TrajectoryRerankerOptions {
  readonly name?: string;
  /** A fitted model; when absent it is read from `context.artifacts` on first use, else fixed weights apply. */
  readonly model?: TrajectoryRerankerModel;
  /** Artifact name the model is read from (default `reranker-trajectory.model`). */
  readonly artifact?: string;
}

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
 * MoR's structure-aware reranker: scores each candidate from the trajectories that reached it (text
 * scores along the path, how each hop was reached, path length, anchor confidence, BM25 and dense
 * scores, how many paths reached it) with a linear model fitted on train queries.
 */
export class TrajectoryReranker implements RerankerV1 {
  readonly specificationVersion = 'v1';
  readonly name: string;
  private model: TrajectoryRerankerModel | undefined;
  private loaded: boolean;
  private readonly artifact: string;

  constructor(options: TrajectoryRerankerOptions = {}) {
    this.name = options.name ?? 'trajectory';
    this.artifact = options.artifact ?? trajectoryRerankerArtifact;
    this.model = options.model;
    this.loaded = options.model !== undefined;
  }

  setModel(model: TrajectoryRerankerModel | undefined): void {
    this.model = model;
    this.loaded = true;
  }

  private async ensureModel(context: RetrievalContext): Promise<TrajectoryRerankerModel | undefined> {
    if (!this.loaded) {
      this.loaded = true;
      const stored = await context.artifacts?.get<TrajectoryRerankerModel>(this.artifact);
      if (
        stored?.version === 1 &&
        stored.linear.features.join() === trajectoryFeatures.join() &&
        (stored.gate === undefined || stored.gate.features.join() === gateFeatures.join())
      )
        this.model = stored;
    }
    return this.model;
  }

  async doRerank(options: RerankOptions): Promise<Candidate[]> {
    if (options.candidates.length === 0) return [];
    const model = await this.ensureModel(options.context);
    const rows = featureRows(options.candidates);
    const trajectory = options.candidates.map((_, i) => {
      const x = rows[i]!;
      const score = model
        ? linearScore(model.linear, x)
        : trajectoryFeatures.reduce((z, name, f) => z + fixedWeights[name] * x[f]!, 0);
      return Number.isFinite(score) ? score : Number.NEGATIVE_INFINITY;
    });
    // The route gate: the less reliable the plan looks for this query, the more the text ranking counts.
    const route = model?.gate
      ? sigmoid(linearScore(model.gate, gateRow(options.query, options.plan, options.candidates, trajectory)))
      : 1;
    const structureFirst = model?.structureFirst ?? false;
    const order = routedOrder(
      options.candidates,
      trajectory,
      structureFirst,
      model?.gate ? route : undefined,
      model?.route ?? 'switch',
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
