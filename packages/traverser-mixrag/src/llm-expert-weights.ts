import { callStructured } from '@weft/llm';
import type { RetrievalContext } from '@weft/spec';
import { z } from 'zod';
import { expertNames } from './expert-gate.ts';

const weightsSchema = z.object({
  entity: z.number().min(0),
  relation: z.number().min(0),
  subgraph: z.number().min(0),
});

const instructions = `You route a question over a knowledge graph to retrieval experts.
- entity: finds nodes whose own description matches the question (good when the question describes the answer itself).
- relation: matches the question against edges written as "<head> <relation> <tail>" (good when it names a relation to a named thing).
- subgraph: a small connected piece of the graph around the best matches (good when the answer is reached through several named things).
Answer with JSON only: {"entity": w, "relation": w, "subgraph": w}, weights between 0 and 1.`;

/**
 * The `mixrag` variant's gate: one call asks the model how much each expert should count for this
 * question. Undefined when the call fails or the weights are all 0 (the learned gate answers then,
 * and the trace says why).
 */
export async function llmExpertWeights(
  query: string,
  context: RetrievalContext,
): Promise<number[] | undefined> {
  const result = await callStructured({
    model: context.languageModel,
    purpose: 'weigh experts',
    instructions,
    prompt: `Question: ${JSON.stringify(query)}`,
    schema: weightsSchema,
    maxOutputTokens: 60,
    ...(context.warn ? { warn: context.warn } : {}),
    fallback: 'the learned gate weighs the experts',
    ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
  });
  if (!result.ok) return undefined;
  const raw = expertNames.map((name) => result.value[name]);
  const total = raw.reduce((s, w) => s + w, 0);
  if (total <= 0) {
    context.warn?.(
      'weigh experts: the model gave every expert weight 0; the learned gate weighs the experts',
    );
    return undefined;
  }
  return raw.map((w) => w / total);
}
