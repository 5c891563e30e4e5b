import {
  ArtifactCache,
  defineArtifact,
  type LinearModel,
  linearScore,
  type NaiveBayesModel,
  naiveBayesProbabilities,
  parseRelationLabel,
  relationLabel as writeRelation,
  sigmoid,
} from '@weft/kit';
import { answerTypes, describedAnchors, groundQuestion, namedRelations } from '@weft/grounding';
import { contentWords, linkMentions, type Mention, mentionAnchors } from '@weft/linker';
import type { Anchor, Plan, PlannerV1, PlanOptions, PlanPath, RetrievalContext } from '@weft/spec';
import { mentionRow } from './mention-model.ts';

/** How the model `trainLexicalPlanner` fits is stored, and `LexicalPlanner` reads it. */
export const lexicalPlannerArtifact = defineArtifact<LexicalPlannerModel>({
  kind: 'planner-lexical',
  version: 1,
});

/** The relation label of "no relation": the answers were not next to any linked mention. */
export const noRelation = 'none';

/**
 * `hypernym|in`: an edge type and the direction it is followed from the mention towards the answer,
 * the class label the model predicts (`relationLabel(…, 'key')` of `@weft/kit`).
 */
export function relationLabel(edgeType: string, direction: 'in' | 'out'): string {
  return writeRelation(edgeType, direction, 'key');
}

export interface LexicalPlannerModel {
  /** P(answer type | words); no labels when fitted without labelled queries. */
  readonly types: NaiveBayesModel;
  /** P(relation from a mentioned node to the answer | words), including `none`; likewise. */
  readonly relations: NaiveBayesModel;
  /** P(a mention names a node next to the answers | `mentionFeatures`); absent when nothing taught it. */
  readonly mentions?: LinearModel;
  /**
   * False when training found the stack better on val without the described anchors
   * (`minDescribedProbability`): the planner then plans the named ones only.
   */
  readonly describedAnchors?: boolean;
}

export interface LexicalPlannerOptions {
  readonly name?: string;
  /** A fitted model; else it is read from `context.artifacts` under `artifact`, when given. */
  readonly model?: LexicalPlannerModel;
  /** Artifact name (`artifactName(stack, 'planner-lexical')`); without it and without a model the planner is untrained. */
  readonly artifact?: string;
  /** Relations kept per mention, most probable first (default 3). */
  readonly relationsPerMention?: number;
  /** Relations below this probability are not planned (default 0.05). */
  readonly minRelationProbability?: number;
  /** Mentions below this specificity start no path (default 0.2). */
  readonly minPathSpecificity?: number;
  /**
   * When set, the nodes the question describes without naming them (`@weft/grounding`'s described
   * reading) join the anchors, after the named ones, at or above this probability (0.2 is the
   * grounding's own floor), unless the model says `describedAnchors: false`. Off by default; the
   * default stack sets 0.2 (see its training, which keeps them only when they help on val).
   */
  readonly minDescribedProbability?: number;
  /**
   * With no relation model fitted on labelled queries, plan paths over the edge types whose names
   * the question's words spell (`@weft/grounding`'s `namedRelations`: "depend on" → `depends`),
   * both directions, the share of the name spelled as probability, kept from `minScore` (default
   * 0.5: "(hypernym)" plans `hypernym` 1 and `instance_hypernym` 0.5). Off by default; the default
   * stack turns it on, and HybGRAG's stacks with `minScore: 1` (their router follows only the
   * planned relations, so a half-spelled name — "moves" → `gigantamax_move` — sends it astray).
   */
  readonly relationsFromNames?: boolean | { readonly minScore?: number };
}

/**
 * Plans from the query's words alone: the mentions that name graph nodes (anchors, with their
 * specificity as confidence), the node type the question asks for when its words name one ("which
 * moves …": `@weft/grounding`'s `answerTypes`) and, once `trainLexicalPlanner` has fitted it on the
 * KB's own queries, which node types are asked for otherwise and which relations lead from each
 * mention to the answers (one-hop paths with calibrated probabilities). Untrained, it plans anchors
 * and the asked type only: no path.
 */
export class LexicalPlanner implements PlannerV1 {
  readonly specificationVersion = 'v1';
  readonly name: string;
  private readonly options: LexicalPlannerOptions;
  /** Loaded once per artifact store: one planner can serve several stores. */
  private readonly models = new ArtifactCache(lexicalPlannerArtifact);

  constructor(options: LexicalPlannerOptions = {}) {
    this.name = options.name ?? 'lexical';
    this.options = options;
  }

  private async model(context: RetrievalContext): Promise<LexicalPlannerModel | undefined> {
    if (this.options.model) return this.options.model;
    return this.options.artifact ? this.models.get(context, this.options.artifact) : undefined;
  }

  async doPlan({ query, context }: PlanOptions): Promise<Plan> {
    const model = await this.model(context);
    const minDescribed = model?.describedAnchors === false ? undefined : this.options.minDescribedProbability;
    const [linked, grounding] = await Promise.all([
      linkMentions(query, context),
      minDescribed === undefined
        ? undefined
        : groundQuestion(query, context, { minProbability: minDescribed }),
    ]);
    // A trained mention model replaces the specificity by the probability that the mention is an anchor.
    const mentionModel = model?.mentions;
    const mentions = mentionModel
      ? linked.map((m) => ({ ...m, specificity: sigmoid(linearScore(mentionModel, mentionRow(m))) }))
      : linked;
    const words = contentWords(query);
    const targets = context.schema.targetTypes ?? context.schema.nodeTypes.map((t) => t.name);
    // A model fitted without labelled queries has no labels: it links mentions only.
    const typeProbabilities = model?.types.labels.length
      ? naiveBayesProbabilities(model.types, words)
      : undefined;
    const relationProbabilities = model?.relations.labels.length
      ? naiveBayesProbabilities(model.relations, words)
      : undefined;
    const fromNames = this.options.relationsFromNames;
    const named =
      !relationProbabilities && fromNames
        ? relationsByName(query, context, fromNames === true ? undefined : fromNames.minScore)
        : undefined;
    // Types the question's words ask for ("which moves …", "which adjective …") are surer than ones
    // learned from words.
    const asked = new Set(
      answerTypes(
        query,
        context.schema.nodeTypes.map((t) => t.name),
      ).filter((type) => targets.includes(type)),
    );
    const typeScore =
      asked.size > 0
        ? (type: string) => Number(asked.has(type))
        : typeProbabilities && ((type: string) => typeProbabilities.get(type) ?? 0);
    const targetTypes = typeScore
      ? targets
          .map((type) => ({ type, score: typeScore(type) }))
          .sort((a, b) => b.score - a.score || a.type.localeCompare(b.type))
      : [];
    const relations = relationProbabilities ?? named;
    const paths = relations ? this.paths(mentions, relations) : [];
    const strongest = Math.max(0, ...mentions.map((m) => m.specificity));
    // Named mentions first: the paths index them.
    const anchors: Anchor[] = [
      ...mentionAnchors(mentions),
      ...(grounding && minDescribed !== undefined
        ? describedAnchors(grounding, { minProbability: minDescribed, exclude: linkedIds(mentions) })
        : []),
    ];
    return {
      query,
      targetTypes,
      anchors,
      paths,
      variables: [],
      triplets: [],
      restriction: restriction(query, mentions),
      confidence: relationProbabilities ? 1 - (relationProbabilities.get(noRelation) ?? 0) : strongest,
    };
  }

  private paths(mentions: readonly Mention[], probabilities: ReadonlyMap<string, number>): PlanPath[] {
    const keep = this.options.relationsPerMention ?? 3;
    const floor = this.options.minRelationProbability ?? 0.05;
    const minSpecificity = this.options.minPathSpecificity ?? 0.2;
    const relations = [...probabilities]
      .filter(([label, p]) => label !== noRelation && p >= floor)
      .sort((a, b) => b[1] - a[1])
      .slice(0, keep);
    const best = relations[0]?.[1] ?? 1;
    const paths: PlanPath[] = [];
    mentions.forEach((mention, anchor) => {
      if (mention.specificity < minSpecificity) return;
      for (const [label, probability] of relations) {
        paths.push({
          anchor,
          hops: [parseRelationLabel(label, 'key')],
          score: probability / best,
          confidence: probability,
        });
      }
    });
    return paths;
  }
}

/** `edgeType|direction` → probability of the edge types the question's words name, both directions. */
function relationsByName(
  query: string,
  context: RetrievalContext,
  minScore: number | undefined,
): Map<string, number> | undefined {
  const edgeTypes = context.schema.edgeTypes.map((e) => e.name);
  const out = new Map<string, number>();
  for (const { edgeType, score } of namedRelations(
    query,
    edgeTypes,
    minScore === undefined ? {} : { minScore },
  )) {
    out.set(`${edgeType}|out`, score);
    out.set(`${edgeType}|in`, score);
  }
  return out.size > 0 ? out : undefined;
}

/** The query without its specific mentions: what the answer's own text should match. */
function restriction(query: string, mentions: readonly Mention[]): string {
  const cut = mentions
    .filter((m) => m.specificity >= 0.5)
    .sort((a, b) => b.end - b.start - (a.end - a.start));
  let out = query;
  for (const mention of cut) out = out.split(mention.text).join(' ');
  const rest = out.replace(/\s+/g, ' ').trim();
  return rest.length > 0 ? rest : query;
}

/** The nodes the linked mentions name (their candidates a stage expands). */
function linkedIds(mentions: readonly Mention[]): Set<string> {
  return new Set(mentions.flatMap((m) => m.nodes.slice(0, 5).map((n) => n.id)));
}
