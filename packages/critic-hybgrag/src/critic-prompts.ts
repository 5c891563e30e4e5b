import { untrustedText, untrustedTextNotice } from '@weft/llm';
import type { CriticFeedbackKind } from '@weft/spec';
import { z } from 'zod';

/** The validator's answer: are the top results right? */
export const validatorSchema = z.object({ accept: z.boolean(), reason: z.string().optional() });
export type ValidatorAnswer = z.infer<typeof validatorSchema>;

const feedbackKinds = [
  'incorrect-entity',
  'missing-entity',
  'no-entity',
  'no-intersection',
  'incorrect-intersection',
  'wrong-module',
] as const satisfies readonly CriticFeedbackKind[];

/** The commentor's answer: corrective feedback of HybGRAG's kinds. */
export const commentorSchema = z.object({
  feedback: z
    .array(
      z.object({
        kind: z.enum(feedbackKinds),
        message: z.string().min(1),
        entity: z.string().min(1).optional(),
      }),
    )
    .min(1),
});
export type CommentorAnswer = z.infer<typeof commentorSchema>;

export const validatorInstructions = `You check the results of a knowledge-base search. Given a question and the top results, each with the path in the knowledge graph that led to it and its description, decide whether the results answer the question. Answer with one JSON object and nothing else: {"accept": true or false, "reason": "<one sentence>"}.
${untrustedTextNotice}`;

export const commentorInstructions = `A knowledge-base search chose a retrieval action and its results were judged wrong. Say what to correct, as feedback of these kinds:
- "incorrect-entity": a topic entity is the wrong node (give it as "entity");
- "missing-entity": an entity the question names is not used (give its words as "entity");
- "no-entity": the question names no usable entity, so the graph cannot help;
- "no-intersection": the topic entities' neighbourhoods share nothing;
- "incorrect-intersection": the relations used lead to the wrong kind of node;
- "wrong-module": text search should be used instead of the graph, or the graph instead of text search.
Answer with one JSON object and nothing else: {"feedback": [{"kind": "…", "message": "<what to change>", "entity": "<optional>"}]}.
${untrustedTextNotice}`;

/** Verdicts models give in other words: `{"valid": true}`, `"yes"`. */
export function repairValidator(value: unknown): { value: unknown; repairs: string[] } {
  if (typeof value === 'boolean')
    return { value: { accept: value }, repairs: ['a bare boolean was taken as the verdict'] };
  if (typeof value === 'string' && /^(yes|no|true|false)$/i.test(value.trim()))
    return {
      value: { accept: /^(yes|true)$/i.test(value.trim()) },
      repairs: ['a yes or no was taken as the verdict'],
    };
  if (value && typeof value === 'object' && !('accept' in value)) {
    const record = value as Record<string, unknown>;
    const key = ['valid', 'correct', 'accepted', 'relevant'].find((k) => typeof record[k] === 'boolean');
    if (key)
      return { value: { ...record, accept: record[key] }, repairs: [`"${key}" was taken as "accept"`] };
  }
  return { value, repairs: [] };
}

/** Feedback models give as a bare list or a single item. */
export function repairCommentor(value: unknown): { value: unknown; repairs: string[] } {
  if (Array.isArray(value))
    return { value: { feedback: value }, repairs: ['a bare list was taken as the feedback'] };
  if (value && typeof value === 'object' && !('feedback' in value) && 'kind' in value)
    return { value: { feedback: [value] }, repairs: ['one feedback item was taken as the list'] };
  return { value, repairs: [] };
}

export function validatorPrompt(query: string, results: readonly string[]): string {
  return `Question: ${untrustedText(query)}\nTop results:\n${results.join('\n')}\nDo these results answer the question?`;
}

export function commentorPrompt(options: {
  readonly query: string;
  readonly action: string;
  readonly mentions: readonly string[];
  readonly reason: string | undefined;
  readonly results: readonly string[];
}): string {
  return [
    `Question: ${untrustedText(options.query)}`,
    `Action taken: ${untrustedText(options.action)}`,
    `Entities the question names (as linked): ${options.mentions.length > 0 ? options.mentions.join('; ') : 'none'}`,
    `Why the results were judged wrong: ${untrustedText(options.reason ?? 'no reason given')}`,
    `Top results:\n${options.results.join('\n')}`,
    'What should the next action correct?',
  ].join('\n');
}
