import { ArtifactCache, emptyPlan, linearScore, pathConstraints, sigmoid, WeftError } from '@weft/kit';
import type {
  Anchor,
  ArtifactRefV1,
  Plan,
  PlannerV1,
  PlanOptions,
  PlanPath,
  PlanTriplet,
  PlanVariable,
  RetrievalContext,
  SkbSchema,
  TypeScore,
} from '@weft/spec';
import { type LinkingOptions, linkQuery } from './hypotheses.ts';
import {
  buildHypotheses,
  defaultHypothesisWeights,
  type Hypothesis,
  hypothesisFeatures,
  relationScores,
} from './hypothesis-features.ts';
import { oneHopMetapaths, toPlanHops } from './metapath.ts';
import { predictCues } from './cue-model.ts';
import { queryWords, singularForms, stopwords, tokens as toTokens } from './query-text.ts';
import { schemaPlannerArtifact } from './schema-planner-artifact.ts';
import type { SchemaPlannerModel } from './schema-planner-model.ts';

/**
 * Where the planner's model comes from: an artifact of the store, by the name its trainer stored it
 * under, or a model given here. There is no default name: a name the trainer does not share would
 * leave a trained store planning with hand-set weights.
 */
export type SchemaPlannerOptions = SchemaPlannerSettings &
  (
    | {
        /**
         * The artifact the training step stored the model under (a name, or a reference that
         * also names where an older Weft stored it), read from `context.artifacts`. When it is
         * missing or stale the planner warns (`context.warn`) and uses hand-set weights.
         */
        readonly artifact: string | ArtifactRefV1;
        readonly model?: undefined;
        readonly untrained?: undefined;
      }
    | { readonly model: SchemaPlannerModel; readonly artifact?: undefined; readonly untrained?: undefined }
    | {
        /** Plan with the hand-set weights on purpose: no artifact is read, no warning given. */
        readonly untrained: true;
        readonly artifact?: undefined;
        readonly model?: undefined;
      }
  );

export interface SchemaPlannerSettings {
  /** How many typed paths the plan keeps (default 8). */
  readonly maxPaths?: number;
  /** Paths scoring below this fraction of the best are dropped (default 0.05). */
  readonly minPathRatio?: number;
  /** Anchors kept, counting mentions without a chosen path (default 10). */
  readonly maxAnchors?: number;
  readonly linking?: LinkingOptions;
}

/**
 * The offline, schema-aware planner: target types from type words and a fitted classifier, anchors
 * by batched name look-up disambiguated by the query's context, metapaths (≤ 3 hops) scored by cue
 * words, and the textual restriction. Makes no LLM call.
 */
export class SchemaPlanner implements PlannerV1 {
  readonly specificationVersion = 'v1';
  readonly name = 'schema';
  private readonly options: SchemaPlannerOptions;
  /**
   * Loaded models by artifact store: one planner may serve several stores (stacks over two stores
   * share it), and each store has its own model. Read once per store; a failed read is retried.
   */
  private readonly models = new ArtifactCache(schemaPlannerArtifact);

  constructor(options: SchemaPlannerOptions) {
    // Callers without types (scripts, JavaScript) get a message rather than a TypeError on first use.
    if (options?.model === undefined && options?.artifact === undefined && options?.untrained !== true) {
      throw new WeftError({
        code: 'WEFT_BAD_INPUT',
        message:
          "SchemaPlanner needs { artifact } (the name trainSchemaPlanner stored its model under, e.g. artifactName(stack, 'planner-schema')), { model } or { untrained: true }",
      });
    }
    this.options = options;
  }

  /** The model for this context's store, or undefined (hand-set weights): asked for, or after a warning. */
  private async modelFor(context: RetrievalContext): Promise<SchemaPlannerModel | undefined> {
    if (this.options.untrained) return undefined;
    return this.options.model ?? this.models.get(context, this.options.artifact);
  }

  async doPlan(options: PlanOptions): Promise<Plan> {
    const { query, context } = options;
    const schema = context.schema;
    const base = emptyPlan(query, schema);
    if (query.trim().length === 0) return base;
    const model = await this.modelFor(context);
    const scored = await scoreHypotheses(query, context, model, this.options.linking);
    const targetTypes = predictTargetTypes(query, schema, model);
    const plan = assemblePlan(query, schema, scored.hypotheses, scored.scores, targetTypes, {
      maxPaths: this.options.maxPaths ?? 8,
      minPathRatio: this.options.minPathRatio ?? 0.05,
      maxAnchors: this.options.maxAnchors ?? 10,
      probabilities: scored.probabilities,
    });
    return { ...plan, confidence: scored.confidence };
  }
}

/** Links the query and scores every (anchor node, metapath) hypothesis in [0, 1]. */
export async function scoreHypotheses(
  query: string,
  context: RetrievalContext,
  model: SchemaPlannerModel | undefined,
  linking?: LinkingOptions,
): Promise<{ hypotheses: Hypothesis[]; scores: number[]; probabilities: number[]; confidence: number }> {
  const linked = await linkQuery(query, context, linking);
  const relation = relationScores(query, context.schema, model);
  const metapaths = model && model.metapaths.length > 0 ? model.metapaths : oneHopMetapaths(context.schema);
  const hypotheses = buildHypotheses(linked, relation, metapaths, model, query);
  const logits = hypotheses.map((h) =>
    model
      ? linearScore(model.hypothesis, h.x)
      : hypothesisFeatures.reduce((z, name, i) => z + defaultHypothesisWeights[name] * h.x[i]!, -4),
  );
  // Path scores relative to the best hypothesis (a softmax numerator): the fitted logits saturate
  // near 1 under a sigmoid, which would leave the traversal no way to prefer the best hypothesis.
  const best = Math.max(Number.NEGATIVE_INFINITY, ...logits);
  const scores = logits.map((z) => Math.exp(z - best));
  return {
    hypotheses,
    scores,
    probabilities: logits.map(sigmoid),
    confidence: Number.isFinite(best) ? sigmoid(best) : 0,
  };
}

/** Node types the query asks for: the fitted classifier blended with type words of the schema. */
export function predictTargetTypes(
  query: string,
  schema: SkbSchema,
  model: SchemaPlannerModel | undefined,
): TypeScore[] {
  const allowed = schema.targetTypes ?? schema.nodeTypes.map((t) => t.name);
  const words = new Set(toTokens(query).flatMap((t) => [t, ...singularForms(t).map((s) => s.toLowerCase())]));
  const cue = new Map<string, number>();
  for (const type of schema.nodeTypes) {
    if (!allowed.includes(type.name)) continue;
    const nameWords = toTokens(type.name.replace(/[_\-.]/g, ' ')).filter((t) => !stopwords.has(t));
    const hits = nameWords.filter((w) => words.has(w)).length;
    cue.set(type.name, nameWords.length ? hits / nameWords.length : 0);
  }
  const learned =
    model && model.targetType.labels.length > 0 ? predictCues(model.targetType, toTokens(query)) : undefined;
  const scores = allowed.map((type) => {
    const fromCue = cue.get(type) ?? 0;
    const fromModel = learned?.get(type) ?? 0;
    return { type, score: learned ? 0.8 * fromModel + 0.2 * fromCue : fromCue };
  });
  const max = Math.max(0, ...scores.map((s) => s.score));
  if (max <= 0) return allowed.map((type) => ({ type, score: 1 }));
  return scores
    .map((s) => ({ type: s.type, score: s.score / max }))
    .filter((s) => s.score >= 0.02)
    .sort((a, b) => b.score - a.score || (a.type < b.type ? -1 : 1));
}

/** Turns scored hypotheses into a plan: anchors per mention, best paths, triplets and the restriction. */
export function assemblePlan(
  query: string,
  schema: SkbSchema,
  hypotheses: readonly Hypothesis[],
  scores: readonly number[],
  targetTypes: readonly TypeScore[],
  options: {
    maxPaths: number;
    minPathRatio: number;
    probabilities?: readonly number[];
    /** Anchors kept in all, counting mentions no chosen path starts from (default: only path anchors). */
    maxAnchors?: number;
  },
): Plan {
  // Best score per (mention, metapath), and per node over all its metapaths.
  const bestPath = new Map<string, { span: number; metapath: string; score: number; probability?: number }>();
  const nodeScore = new Map<string, number>();
  hypotheses.forEach((h, i) => {
    const score = scores[i]!;
    const key = `${h.node.span}|${h.metapath}`;
    const previous = bestPath.get(key);
    const probability = options.probabilities?.[i];
    if (!previous || previous.score < score)
      bestPath.set(key, {
        span: h.node.span,
        metapath: h.metapath,
        score,
        ...(probability === undefined ? {} : { probability }),
      });
    const nodeKey = `${h.node.span}|${h.node.id}`;
    nodeScore.set(nodeKey, Math.max(nodeScore.get(nodeKey) ?? 0, score));
  });
  const ranked = [...bestPath.values()].sort(
    (a, b) => b.score - a.score || (a.metapath < b.metapath ? -1 : 1),
  );
  const top = ranked[0]?.score ?? 0;
  const chosen = ranked.filter((p) => p.score >= top * options.minPathRatio).slice(0, options.maxPaths);

  const anchors: Anchor[] = [];
  const anchorOfSpan = new Map<number, number>();
  // Two mentions of one node (a quoted name repeated in a gloss) are one anchor.
  const anchorOfNode = new Map<string, number>();
  const addAnchor = (path: { span: number; score: number }) => {
    if (anchorOfSpan.has(path.span)) return;
    const nodes = hypotheses.filter((h) => h.node.span === path.span);
    const byNode = new Map<string, { id: string; type: string; score: number }>();
    for (const h of nodes) {
      byNode.set(h.node.id, {
        id: h.node.id,
        type: h.node.type,
        score: nodeScore.get(`${path.span}|${h.node.id}`) ?? 0,
      });
    }
    const mention = queryMention(hypotheses, path.span);
    const candidates = [...byNode.values()]
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
      .map(({ id, type, score }) => ({ id, type, score }));
    const topId = candidates[0]?.id ?? '';
    const same = anchorOfNode.get(topId);
    if (same !== undefined) {
      anchorOfSpan.set(path.span, same);
      return;
    }
    anchorOfNode.set(topId, anchors.length);
    anchorOfSpan.set(path.span, anchors.length);
    anchors.push({ mention, candidates, confidence: path.score });
  };
  for (const path of chosen) addAnchor(path);
  // Mentions none of the chosen paths start from are still anchors (without paths): a traverser
  // may find answers next to them by a relation the planner did not predict.
  const pathAnchors = anchors.length;
  for (const path of ranked) {
    if (anchors.length >= Math.max(pathAnchors, options.maxAnchors ?? 0)) break;
    if (path.score >= top * options.minPathRatio) addAnchor(path);
  }
  // Anchors without paths keep their words in the restriction: they may describe the answer.
  const restrictionAnchors = anchors.slice(0, pathAnchors);

  // The restriction: the query without the anchors' words and function words.
  const anchorWords = new Set(restrictionAnchors.flatMap((a) => toTokens(a.mention)));
  const restriction = queryWords(query)
    .filter((w) => !stopwords.has(w.lower) && !anchorWords.has(w.lower))
    .map((w) => w.text)
    .join(' ');

  const seenPaths = new Set<string>();
  const paths: PlanPath[] = [];
  for (const p of chosen) {
    const anchor = anchorOfSpan.get(p.span)!;
    const key = `${anchor}|${p.metapath}`;
    if (seenPaths.has(key)) continue;
    seenPaths.add(key);
    paths.push({
      anchor,
      hops: toPlanHops(schema, p.metapath, restriction),
      score: p.score,
      ...(p.probability === undefined ? {} : { confidence: p.probability }),
    });
  }

  const { variables, triplets } = constraintsOf(paths, anchors, restriction, targetTypes);
  return {
    query,
    targetTypes,
    anchors,
    paths,
    variables,
    triplets,
    ...(triplets.length > 0 ? { target: 'x' } : {}),
    restriction: restriction || query,
    confidence: top,
  };
}

function queryMention(hypotheses: readonly Hypothesis[], span: number): string {
  return hypotheses.find((h) => h.node.span === span)?.mention ?? '';
}

/**
 * FocusedRetriever's view of the same intent: the best path as triplets from its anchor to the
 * target variable `x`, plus the best path of a second, different mention when it is nearly as good
 * (a conjunction, e.g. "instance of A1 and part of A2").
 */
function constraintsOf(
  paths: readonly PlanPath[],
  anchors: readonly Anchor[],
  restriction: string,
  targetTypes: readonly TypeScore[],
): { variables: PlanVariable[]; triplets: PlanTriplet[] } {
  const first = paths[0];
  if (!first) return { variables: [], triplets: [] };
  const selected = [first];
  const second = paths.find((p) => p.anchor !== first.anchor && p.score >= 0.5 * first.score);
  if (second) selected.push(second);
  // A path whose anchor is not in the plan constrains nothing (it keeps its place in the names).
  const anchored = selected.map((path) => (anchors[path.anchor!] ? path : { ...path, anchor: undefined }));
  return pathConstraints(anchored, { targetTypes, restriction });
}
