import { ArtifactCache, defineArtifact, type LinearModel, linearScore } from '@weft/kit';
import type { Candidate, RerankerV1, RerankOptions, RetrievalContext } from '@weft/spec';
import {
  featureRows,
  type LinearFeature,
  linearFeatures,
  linearScoreKeys,
  mentionGate,
  nameQuery,
} from './linear-features.ts';

/** How the model `trainLinearReranker` fits is stored, and `LinearReranker` reads it. */
export const linearRerankerArtifact = defineArtifact<LinearRerankerModel>({
  kind: 'reranker-linear',
  version: 1,
});

/**
 * What training keeps: fitted weights, or none when the untrained weights did better on val (then
 * the reranker says so in the trace instead of pretending to be trained).
 */
export interface LinearRerankerModel {
  readonly linear?: LinearModel;
  /** Val figures of the fitted and of the untrained weights, for `weft info` and the train report. */
  readonly val: { readonly fitted: number; readonly untrained: number };
}

/**
 * The weights used until the KB's queries say otherwise: the node's own document for queries that
 * name nothing specific, the relation-aware document as much as they do, adjacency to a named node,
 * three times that for adjacency over a relation the plan names (`relationMatch`), as much as the
 * first for a neighbour the question describes (`neighbourText`), and the plan's answer type
 * (`targetType`: untrained, the type the question's words ask for, else nothing). Chosen on the train/val splits of three KBs of
 * different shapes: WordNet, Pokémon, Debian (`neighbourText` 0.15 against 0, 0.1 and 0.3: every
 * hybrid and described set gained or held, text-only sets held; `targetType` 1 against 0, 0.3 and
 * 2: Pokémon hybrid and described gained, nothing else moved). `anchorLink` 0.15 and
 * `relationMatch` 0.45 against 0.3 and 0.3 (and 0 / 0.3, 0.2 / 0.3, 0.1 / 0.5), Hit@1
 * in questions of untrained stores: synthesised text-only questions (189 a KB) WordNet 166 → 172,
 * Debian 136 → 138, Pokémon 64 → 65; WordNet hybrid train 87 → 91, wn18rr val 114 → 118 of 300;
 * Pokémon described train 9 → 10; Debian described train 13 → 12; every other split equal. Any
 * adjacency lifts a namesake's neighbours of a common word; one over the relation the question
 * names rarely does. `nameLookup` 1 and `namedNotAsked` -0.6 (against 0 / 0, 0.5 / -0.3, 1 / -0.3,
 * 1 / -1, 0.5 / -0.6): a query that is a name asks for that node, which every adjacency above would
 * otherwise rank below its neighbours ("ecasound" → `ecasound-doc`; queries made of one target
 * node's name, 100 a KB, answered first: WordNet 50 → 97, Pokémon 54 → 100, Debian 39 → 100; bm25
 * 65, 86, 89); a question that names a node and says more asks about another (wn18rr val 118 → 158
 * of 300, WordNet hybrid train 91 → 93, synthesised text-only 172 → 173; Pokémon and Debian sets
 * unchanged). `nameLookup` counts a node a mention describes as one it names (a text-only question is
 * mostly the description of its answer, which would otherwise rank below that node's neighbours):
 * synthesised text-only questions WordNet 173 → 175, Debian 138 → 142, Pokémon 65 → 64; Debian
 * described train 12 → 13, Pokémon hybrid train 21 → 22 and val 12 → 11; every other split equal.
 * `queryGraph` 1: an endpoint of an executed query-graph reading (the question names the relation and
 * barely describes the answer: "a part of the eye") is what the question asks for; untrained, val
 * Hit@1 everyday WordNet questions 16.7 → 63.3 (0.5: 43.3), the hybrid sets within one question.
 */
export const untrainedWeights: Readonly<Partial<Record<LinearFeature, number>>> = {
  documentGated: 1,
  relationsGated: 1,
  anchorLink: 0.15,
  neighbourText: 0.15,
  targetType: 1,
  relationMatch: 0.45,
  nameLookup: 1,
  namedNotAsked: -0.6,
  queryGraph: 1,
};

export function untrainedLinearScore(row: readonly number[]): number {
  return linearFeatures.reduce((sum, feature, i) => sum + (untrainedWeights[feature] ?? 0) * row[i]!, 0);
}

export interface LinearRerankerOptions {
  readonly name?: string;
  /** Fitted weights; else read from `context.artifacts` under `artifact`. */
  readonly model?: LinearRerankerModel;
  /** Artifact name (`artifactName(stack, 'reranker-linear')`); without it or a model, untrained weights apply. */
  readonly artifact?: string;
}

/**
 * Orders candidates by a linear model over `linearFeatures` (computed from the candidates'
 * `KnownScores` and the plan's anchors): weights fitted by `trainLinearReranker` on the KB's own
 * queries, or `untrainedWeights`. Scores of the output are the model's, so they agree with the order.
 */
export class LinearReranker implements RerankerV1 {
  readonly specificationVersion = 'v1';
  readonly name: string;
  readonly requiredScores = linearScoreKeys;
  private readonly options: LinearRerankerOptions;
  private readonly models = new ArtifactCache(linearRerankerArtifact);

  constructor(options: LinearRerankerOptions = {}) {
    this.name = options.name ?? 'linear';
    this.options = options;
  }

  private async model(context: RetrievalContext): Promise<LinearModel | undefined> {
    if (this.options.model) return this.options.model.linear;
    if (!this.options.artifact) return undefined;
    const model = await this.models.get(context, this.options.artifact);
    if (model && !model.linear) {
      context.warn?.(
        `trained, but the untrained weights did better on val (${model.val.untrained.toFixed(1)} vs ${model.val.fitted.toFixed(1)}): they apply`,
      );
    }
    return model?.linear;
  }

  async doRerank({ candidates, plan, limit, context }: RerankOptions): Promise<Candidate[]> {
    if (candidates.length === 0) return [];
    const model = await this.model(context);
    const rows = featureRows(candidates, plan);
    const untrained = rows.map((row) => untrainedLinearScore(row));
    const fitted = model ? rows.map((row) => linearScore(model, row)) : untrained;
    // Fitted weights speak as much as the question names something: a question that names nothing
    // keeps the untrained, text-led order, whatever relational questions taught the weights. So does
    // a query that is only a name: no training question is one, so the weights never learn that the
    // node it names is the answer.
    const gate = model ? mentionGate(plan) * (1 - nameQuery(plan)) : 1;
    const rankOf = (scores: readonly number[]) => {
      const order = scores.map((s, i) => ({ s, i })).sort((a, b) => b.s - a.s || a.i - b.i);
      const rank = new Array<number>(scores.length);
      order.forEach((e, r) => {
        rank[e.i] = r;
      });
      return rank;
    };
    const fittedRank = rankOf(fitted);
    const untrainedRank = rankOf(untrained);
    const scored = candidates.map((candidate, i) => ({
      candidate,
      score: model ? gate / (60 + fittedRank[i]!) + (1 - gate) / (60 + untrainedRank[i]!) : untrained[i]!,
      i,
    }));
    scored.sort((a, b) => b.score - a.score || a.i - b.i);
    // Only what matched: a candidate none of whose weighed retrieval features is positive (a dense
    // neighbour the untrained weights ignore, everything for a query of no known word) is no answer,
    // and would pad a short list at score 0. Dropped after the order is made, so the order of the
    // rest is unchanged.
    const weighed = matchFeatureIndexes(model);
    const matched = (i: number) => weighed.some((k) => rows[i]![k]! > 0);
    const seen = new Set<string>();
    const out: Candidate[] = [];
    for (const { candidate, score, i } of scored) {
      if (!matched(i)) continue;
      if (seen.has(candidate.id)) continue;
      seen.add(candidate.id);
      out.push({ ...candidate, score: Number.isFinite(score) ? score : Number.NEGATIVE_INFINITY });
      if (out.length >= limit) break;
    }
    return out;
  }
}

/**
 * Features that say a retriever matched the candidate (rather than what type it is, or that it is not
 * the type asked for): the type features apply to every node of a type, matched or not.
 */
const typeFeatures: ReadonlySet<LinearFeature> = new Set(['targetType', 'namedNotAsked']);

/** Indexes (in `linearFeatures`) of the match features the weights in use weigh: untrained, and fitted when a model applies. */
function matchFeatureIndexes(model: LinearModel | undefined): number[] {
  const indexes: number[] = [];
  linearFeatures.forEach((feature, k) => {
    if (typeFeatures.has(feature)) return;
    const fitted = model ? (model.weights[model.features.indexOf(feature)] ?? 0) : 0;
    if ((untrainedWeights[feature] ?? 0) !== 0 || fitted !== 0) indexes.push(k);
  });
  return indexes;
}
