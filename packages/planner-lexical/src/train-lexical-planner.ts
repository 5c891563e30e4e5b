import { fitLogistic, NaiveBayes } from '@weft/kit';
import { contentWords, linkMentions } from '@weft/linker';
import type { RetrievalContext } from '@weft/spec';
import { type LexicalPlannerModel, noRelation, relationLabel } from './lexical-planner.ts';
import { mentionFeatures, mentionRow } from './mention-model.ts';

/** One training query: the text, its gold answers, and how much it counts. */
export interface PlannerExample {
  readonly query: string;
  readonly answers: readonly string[];
  readonly weight?: number;
  /**
   * Made by a synthesiser: it teaches which mentions name anchors, but not how people phrase types
   * and relations (the naive Bayes models learn from the other examples only).
   */
  readonly synthesized?: boolean;
}

export interface TrainLexicalPlannerOptions {
  /** Nodes per mention looked at for relations (default 5, as the field traverser expands). */
  readonly nodesPerMention?: number;
  /**
   * Fit the mention model (default true). Off for synthesised queries only: measured on two KBs,
   * what they teach about anchors did not carry over to questions people wrote (docs/results.md).
   */
  readonly mentionModel?: boolean;
  readonly onProgress?: (done: number, total: number) => void;
  readonly abortSignal?: AbortSignal;
}

/**
 * Fits the planner on queries with known answers, from the KB itself: the answers' types give
 * P(type | words); the edges between the nodes a query mentions and its answers give
 * P(relation | words) — `none` when no answer is next to a mentioned node (a text-only query) — and
 * label each mention as naming an anchor or not, for the mention model. One name look-up, one
 * neighbour expansion and one node fetch per query.
 */
export async function trainLexicalPlanner(
  context: RetrievalContext,
  examples: readonly PlannerExample[],
  options: TrainLexicalPlannerOptions = {},
): Promise<LexicalPlannerModel> {
  const types = new NaiveBayes();
  const relations = new NaiveBayes();
  const rows: { x: number[]; y: 0 | 1; weight: number }[] = [];
  const perMention = options.nodesPerMention ?? 5;
  let done = 0;
  for (const example of examples) {
    options.abortSignal?.throwIfAborted();
    const words = contentWords(example.query);
    const weight = example.weight ?? 1;
    const answers = new Set(example.answers);
    const mentions = await linkMentions(example.query, context);
    const seeds = [...new Set(mentions.flatMap((m) => m.nodes.slice(0, perMention).map((n) => n.id)))].filter(
      (id) => !answers.has(id),
    );
    const labels = new Set<string>();
    const nextToAnswer = new Set<string>();
    if (seeds.length > 0) {
      for (const n of await context.graph.doNeighbors({ seeds, direction: 'both' })) {
        if (!answers.has(n.node)) continue;
        labels.add(relationLabel(n.edgeType, n.direction));
        nextToAnswer.add(n.seed);
      }
    }
    for (const mention of mentions) {
      const anchor = mention.nodes.slice(0, perMention).some((n) => nextToAnswer.has(n.id));
      rows.push({ x: mentionRow(mention), y: anchor ? 1 : 0, weight: weight / mentions.length });
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
  const taught = (options.mentionModel ?? true) && rows.some((r) => r.y === 1) && rows.some((r) => r.y === 0);
  return {
    types: types.model(),
    relations: relations.model(),
    ...(taught ? { mentions: fitLogistic(mentionFeatures, rows, { l2: 0.01, epochs: 300 }) } : {}),
  };
}
