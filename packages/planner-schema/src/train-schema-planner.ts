import { fitLogistic, type NaiveBayesModel } from '@weft/kit';
import type { RetrievalContext, SkbQuery } from '@weft/spec';
import { type Linking, type LinkingOptions, linkQuery } from './hypotheses.ts';
import { buildHypotheses, hypothesisFeatures } from './hypothesis-features.ts';
import { type MetapathKey, metapathKey } from './metapath.ts';
import { fitCueModel, predictCues } from './cue-model.ts';
import { tokens as toTokens } from './query-text.ts';
import type { SchemaPlannerModel } from './schema-planner-model.ts';

export interface TrainSchemaPlannerOptions {
  /** Candidate sets larger than this do not count as explaining an answer (default 400). */
  readonly maxCandidates?: number;
  /** A metapath joins the vocabulary when it explains answers of this many train queries (default 2). */
  readonly minSupport?: number;
  /** Cross-fitting folds for the relation feature of the hypothesis model (default 4). */
  readonly folds?: number;
  readonly linking?: LinkingOptions;
  /**
   * Weight of each train query (default 1). Give each query set the same total weight when sets
   * differ in size, or the largest set's phrasing decides every relation.
   */
  readonly weights?: readonly number[];
  /** Called after each train query is analysed. */
  readonly onProgress?: (done: number, total: number) => void;
}

interface Explained {
  readonly query: string;
  readonly tokens: string[];
  readonly linking: Linking;
  /** (node id, metapath) pairs whose candidate set holds an answer, with the set's size. */
  readonly positives: Map<string, number>;
  readonly answerTypes: Map<string, number>;
}

/**
 * Fits the schema planner on train queries: which metapaths explain answers (found by walking the
 * graph from every linked span), cue words per metapath, the answers' node types, and the weights
 * that score (anchor, metapath) hypotheses. Returns the model; the training step stores it
 * (`schemaPlannerArtifact.save`).
 */
export async function trainSchemaPlanner(
  context: RetrievalContext,
  train: readonly SkbQuery[],
  _val: readonly SkbQuery[] = [],
  options: TrainSchemaPlannerOptions = {},
): Promise<SchemaPlannerModel> {
  const maxCandidates = options.maxCandidates ?? 400;
  const queryDocumentFrequency: Record<string, number> = {};
  for (const query of train)
    for (const t of new Set(toTokens(query.query)))
      queryDocumentFrequency[t] = (queryDocumentFrequency[t] ?? 0) + 1;

  const explained: Explained[] = [];
  for (const [done, query] of train.entries()) {
    explained.push(await explain(context, query, maxCandidates, options.linking));
    options.onProgress?.(done + 1, train.length);
  }

  // Label weights per query: specific explanations (small candidate sets) count more.
  const labelsOf = (e: Explained): Record<string, number> => {
    const best = new Map<MetapathKey, number>();
    for (const [pair, size] of e.positives) {
      const key = pair.slice(pair.indexOf('|') + 1);
      best.set(key, Math.max(best.get(key) ?? 0, 1 / Math.sqrt(size)));
    }
    const total = [...best.values()].reduce((s, v) => s + v, 0);
    return Object.fromEntries([...best].map(([k, v]) => [k, v / total]));
  };
  const support = new Map<MetapathKey, number>();
  for (const e of explained)
    for (const key of Object.keys(labelsOf(e))) support.set(key, (support.get(key) ?? 0) + 1);
  const metapaths = [...support]
    .filter(([, n]) => n >= (options.minSupport ?? 2))
    .map(([k]) => k)
    .sort();
  const vocabulary = new Set(metapaths);
  const weightOf = (i: number) => options.weights?.[i] ?? 1;
  const relationExamples = explained.map((e, i) => ({
    tokens: e.tokens,
    labels: Object.fromEntries(
      Object.entries(labelsOf(e))
        .filter(([k]) => vocabulary.has(k))
        .map(([k, v]) => [k, v * weightOf(i)]),
    ),
  }));
  const relation = fitCueModel(relationExamples);
  const targetType = fitCueModel(
    explained.map((e, i) => ({
      tokens: e.tokens,
      labels: Object.fromEntries([...e.answerTypes].map(([k, v]) => [k, v * weightOf(i)])),
    })),
  );

  // Hypothesis rows, with the relation feature cross-fitted so it is as noisy as on unseen queries.
  const folds = Math.max(2, options.folds ?? 4);
  const foldModels: NaiveBayesModel[] = [];
  for (let f = 0; f < folds; f++)
    foldModels.push(fitCueModel(relationExamples.filter((_, i) => i % folds !== f)));
  const partial: SchemaPlannerModel = {
    queryDocumentFrequency,
    queryCount: train.length,
    metapaths,
    relation,
    targetType,
    hypothesis: { features: [...hypothesisFeatures], weights: [], bias: 0, mean: [], scale: [] },
  };
  const rows: { x: number[]; y: 0 | 1 }[] = [];
  explained.forEach((e, i) => {
    const scores = predictCues(foldModels[i % folds]!, e.tokens);
    const hypotheses = buildHypotheses(e.linking, scores, metapaths, partial, e.query);
    const positives = hypotheses.filter((h) => e.positives.has(`${h.node.id}|${h.metapath}`));
    if (positives.length === 0) return;
    const negatives = hypotheses.filter((h) => !e.positives.has(`${h.node.id}|${h.metapath}`));
    // A deterministic subsample keeps every query's weight comparable.
    const step = Math.max(1, Math.floor(negatives.length / 80));
    // The logistic fit has no row weights: a query of weight w contributes its rows w times.
    for (let copy = 0; copy < Math.max(1, Math.round(weightOf(i))); copy++) {
      for (const h of positives) rows.push({ x: h.x, y: 1 });
      for (let n = 0; n < negatives.length; n += step) rows.push({ x: negatives[n]!.x, y: 0 });
    }
  });
  const hypothesis = fitLogistic([...hypothesisFeatures], rows, { l2: 1e-3, epochs: 400 });
  const model: SchemaPlannerModel = { ...partial, hypothesis };
  return model;
}

/** Walks one and two hops from every linked node and records which metapaths reach the answers. */
async function explain(
  context: RetrievalContext,
  query: SkbQuery,
  maxCandidates: number,
  linkingOptions?: LinkingOptions,
): Promise<Explained> {
  const linking = await linkQuery(query.query, context, linkingOptions);
  const gold = new Set(query.answers);
  const explanations = new Map<string, { size: number; precision: number }>();
  const record = (pair: string, reached: ReadonlySet<string>) => {
    if (reached.size > maxCandidates) return;
    const overlap = [...reached].filter((id) => gold.has(id)).length;
    if (overlap > 0) explanations.set(pair, { size: reached.size, precision: overlap / reached.size });
  };
  const secondSeeds = new Set<string>();
  for (const [, byKey] of linking.firstHops) {
    for (const [key, neighbors] of byKey) {
      const reached = new Set(neighbors.map((n) => n.node));
      const seed = neighbors[0]!.seed;
      record(`${seed}|${key}`, reached);
      if (reached.size <= 60) for (const id of reached) secondSeeds.add(id);
    }
  }
  if (secondSeeds.size > 0) {
    const seeds = [...secondSeeds].slice(0, 1500);
    const second = await context.graph.doNeighbors({ seeds, direction: 'both', limitPerSeed: 200 });
    const bySeed = new Map<string, typeof second>();
    for (const n of second) (bySeed.get(n.seed) ?? bySeed.set(n.seed, []).get(n.seed)!).push(n);
    for (const [, byKey] of linking.firstHops) {
      for (const [key, neighbors] of byKey) {
        if (neighbors.length > 60) continue;
        const anchor = neighbors[0]!.seed;
        const sets = new Map<string, Set<string>>();
        for (const middle of neighbors) {
          for (const n of bySeed.get(middle.node) ?? []) {
            if (n.node === anchor) continue;
            const path = `${key}/${metapathKey([{ edgeType: n.edgeType, direction: n.direction }])}`;
            (sets.get(path) ?? sets.set(path, new Set()).get(path)!).add(n.node);
          }
        }
        for (const [path, reached] of sets) {
          record(`${anchor}|${path}`, reached);
        }
      }
    }
  }
  // Only the most specific explanations count: a generic anchor whose large neighbourhood happens
  // to hold an answer is not what the query meant.
  const bestPrecision = Math.max(0, ...[...explanations.values()].map((e) => e.precision));
  const positives = new Map<string, number>();
  for (const [pair, e] of explanations) if (e.precision >= 0.5 * bestPrecision) positives.set(pair, e.size);
  const answerTypes = new Map<string, number>();
  const nodes = await context.graph.doGetNodes(query.answers);
  for (const node of nodes)
    if (node) answerTypes.set(node.type, (answerTypes.get(node.type) ?? 0) + 1 / query.answers.length);
  return { query: query.query, tokens: toTokens(query.query), linking, positives, answerTypes };
}
