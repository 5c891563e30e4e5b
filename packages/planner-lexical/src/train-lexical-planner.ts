import { contentWords, linkMentions } from '@weft/linker';
import type { RetrievalContext } from '@weft/spec';
import { relationLabel, type LexicalPlannerModel, noRelation } from './lexical-planner.ts';
import { NaiveBayes } from './naive-bayes.ts';

/** One training query: the text, its gold answers, and how much it counts. */
export interface PlannerExample {
  readonly query: string;
  readonly answers: readonly string[];
  readonly weight?: number;
}

export interface TrainLexicalPlannerOptions {
  /** Mentions at least this specific are looked at for relations (default 0.2). */
  readonly minSpecificity?: number;
  readonly onProgress?: (done: number, total: number) => void;
  readonly abortSignal?: AbortSignal;
}

/**
 * Fits the planner's two naive Bayes models on queries with known answers, from the KB itself: the
 * answers' types give P(type | words); the edges between the nodes a query mentions and its answers
 * give P(relation | words) — `none` when no answer is next to a mentioned node (a text-only query).
 * One name look-up, one neighbour expansion and one node fetch per query.
 */
export async function trainLexicalPlanner(
  context: RetrievalContext,
  examples: readonly PlannerExample[],
  options: TrainLexicalPlannerOptions = {},
): Promise<LexicalPlannerModel> {
  const types = new NaiveBayes();
  const relations = new NaiveBayes();
  const minSpecificity = options.minSpecificity ?? 0.2;
  let done = 0;
  for (const example of examples) {
    options.abortSignal?.throwIfAborted();
    const words = contentWords(example.query);
    const weight = example.weight ?? 1;
    const answers = new Set(example.answers);
    const nodes = await context.graph.doGetNodes([...answers]);
    const answerTypes = new Set(nodes.flatMap((node) => (node ? [node.type] : [])));
    for (const type of answerTypes) types.add(type, words, weight / answerTypes.size);

    const mentions = (await linkMentions(example.query, context)).filter(
      (m) => m.specificity >= minSpecificity,
    );
    const seeds = [...new Set(mentions.flatMap((m) => m.nodes.map((n) => n.id)))].filter(
      (id) => !answers.has(id),
    );
    const labels = new Set<string>();
    if (seeds.length > 0) {
      const neighbours = await context.graph.doNeighbors({ seeds, direction: 'both' });
      for (const n of neighbours) if (answers.has(n.node)) labels.add(relationLabel(n.edgeType, n.direction));
    }
    if (labels.size === 0) labels.add(noRelation);
    for (const label of labels) relations.add(label, words, weight / labels.size);
    options.onProgress?.(++done, examples.length);
  }
  return { types: types.model(), relations: relations.model() };
}
