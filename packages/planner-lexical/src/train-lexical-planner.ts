import { contentWords, fitGroundingModels, type GroundingExample, groundQuestion } from '@weft/grounding';
import type { RetrievalContext } from '@weft/spec';
import { type LexicalPlannerModel, noRelation, relationLabel } from './lexical-planner.ts';
import { NaiveBayes } from './naive-bayes.ts';

/** One training query: the text, its gold answers, and how much it counts. */
export interface PlannerExample {
  readonly query: string;
  readonly answers: readonly string[];
  readonly weight?: number;
  /**
   * Made by a synthesiser: it does not teach how people phrase types and relations (the naive
   * Bayes models learn from the other examples only).
   */
  readonly synthesized?: boolean;
}

export interface TrainLexicalPlannerOptions {
  /** Nodes per mention looked at for relations (default 5, as the field traverser expands). */
  readonly nodesPerMention?: number;
  /**
   * Fit grounding models on the labelled queries (default true; never on synthesised ones, whose
   * phrasing is the KB's own text): a candidate counts as an anchor when it is next to an answer.
   */
  readonly groundingModels?: boolean;
  readonly onProgress?: (done: number, total: number) => void;
  readonly abortSignal?: AbortSignal;
}

/**
 * Fits the planner on queries with known answers, from the KB itself: the answers' types give
 * P(type | words); the edges between the nodes a query is grounded in and its answers give
 * P(relation | words) — `none` when no answer is next to a grounded node (a text-only query). One
 * grounding, one neighbour expansion and one node fetch per query.
 */
export async function trainLexicalPlanner(
  context: RetrievalContext,
  examples: readonly PlannerExample[],
  options: TrainLexicalPlannerOptions = {},
): Promise<LexicalPlannerModel> {
  const types = new NaiveBayes();
  const relations = new NaiveBayes();
  const perMention = options.nodesPerMention ?? 5;
  const groundingExamples: GroundingExample[] = [];
  const fitGrounding = options.groundingModels ?? true;
  let done = 0;
  for (const example of examples) {
    options.abortSignal?.throwIfAborted();
    const words = contentWords(example.query);
    const weight = example.weight ?? 1;
    const answers = new Set(example.answers);
    const { mentions } = await groundQuestion(example.query, context);
    if (fitGrounding && !example.synthesized) {
      // Every candidate the question could be grounded in, labelled by the KB: next to an answer.
      const all = await groundQuestion(example.query, context, {
        minProbability: 0,
        candidatesPerMention: 20,
      });
      const candidates = all.mentions.flatMap((m) => m.candidates).filter((c) => !answers.has(c.id));
      const ids = [...new Set(candidates.map((c) => c.id))];
      const next = new Set<string>();
      if (ids.length > 0)
        for (const n of await context.graph.doNeighbors({
          seeds: ids,
          direction: 'both',
          limitPerSeed: 5000,
        }))
          if (answers.has(n.node)) next.add(n.seed);
      for (const candidate of candidates)
        groundingExamples.push({
          candidate,
          anchor: next.has(candidate.id),
          weight: weight / Math.max(1, candidates.length),
        });
    }
    const seeds = [
      ...new Set(mentions.flatMap((m) => m.candidates.slice(0, perMention).map((n) => n.id))),
    ].filter((id) => !answers.has(id));
    const labels = new Set<string>();
    if (seeds.length > 0 && !example.synthesized) {
      for (const n of await context.graph.doNeighbors({ seeds, direction: 'both' })) {
        if (answers.has(n.node)) labels.add(relationLabel(n.edgeType, n.direction));
      }
    }
    if (!example.synthesized) {
      const nodes = await context.graph.doGetNodes([...answers]);
      const answerTypes = new Set(nodes.flatMap((node) => (node ? [node.type] : [])));
      for (const type of answerTypes) types.add(type, words, weight / answerTypes.size);
      if (labels.size === 0) labels.add(noRelation);
      for (const label of labels) relations.add(label, words, weight / labels.size);
    }
    options.onProgress?.(++done, examples.length);
  }
  const grounding = fitGrounding ? fitGroundingModels(groundingExamples) : {};
  return {
    types: types.model(),
    relations: relations.model(),
    ...(grounding.named || grounding.described ? { grounding } : {}),
  };
}
